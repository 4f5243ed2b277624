import { Type } from "@sinclair/typebox";
import { ApiBaseUrl, integer, MAX_TIMER_MS, NonEmptyString, stringEnum } from "./primitives.js";

/** The audio formats OpenAI's `/audio/speech` is asked for here: Opus (in Ogg) for voice notes, MP3 otherwise, WAV for local servers that encode nothing. */
export const TTS_RESPONSE_FORMATS = ["mp3", "opus", "wav"] as const;

/**
 * `tts.providers.<id>`: one speech provider's settings. Only OpenAI's `/audio/speech` wire is
 * spoken here (`openai`, or a `models.providers` entry with an openai-* api, such as DeepInfra
 * or a local Kokoro server), so these are OpenAI's fields.
 */
const TtsProviderSettings = Type.Object({
  /** Else `models.providers.<id>.apiKey`, else `<ID>_API_KEY` from the gateway's environment. */
  apiKey: Type.Optional(Type.String()),
  /** Else `OPENAI_TTS_BASE_URL` (openai only), `models.providers.<id>.baseUrl`, OpenAI's own. */
  baseUrl: Type.Optional(ApiBaseUrl),
  model: Type.Optional(NonEmptyString),
  speakerVoice: Type.Optional(NonEmptyString),
  /** OpenClaw's legacy name for speakerVoice. */
  voice: Type.Optional(NonEmptyString),
  /** OpenAI's `instructions` (how to speak), sent as written. */
  instructions: Type.Optional(NonEmptyString),
  /** Always this format; unset, Opus for a voice-note channel (Telegram) and MP3 elsewhere. */
  responseFormat: Type.Optional(stringEnum(TTS_RESPONSE_FORMATS)),
  speed: Type.Optional(Type.Number({ minimum: 0.25, maximum: 4 })),
  /** Merged into the request body after the fields above (a compatible server's own keys, such as Kokoro's `lang`). */
  extraBody: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/** OpenClaw's Auto-TTS modes; `tagged` (`[[tts:...]]` directives) is refused in cross-field-rules.ts. */
export const TTS_AUTO_MODES = ["off", "always", "inbound", "tagged"] as const;

/** Which replies Auto-TTS speaks: `final` (the run's final reply); `all` is refused in cross-field-rules.ts. */
export const TTS_MODES = ["final", "all"] as const;

/** `tts`: text-to-speech for the `tts` tool, `/tts audio`, `tts.convert` and Auto-TTS (replies to chat channels also spoken). */
export const TtsSchema = Type.Object({
  /** Auto-TTS: `off` (default), `always` (every final reply to a chat), `inbound` (only replies to a voice message). */
  auto: Type.Optional(stringEnum(TTS_AUTO_MODES)),
  /** OpenClaw's legacy Auto-TTS toggle: `true` is `auto: "always"` when `auto` is unset. */
  enabled: Type.Optional(Type.Boolean()),
  /** Which replies Auto-TTS speaks: only `final` (the default) is supported. */
  mode: Type.Optional(stringEnum(TTS_MODES)),
  /** The speech provider; default `openai`. */
  provider: Type.Optional(NonEmptyString),
  /** One request's limit on the provider; a call's own `timeoutMs` wins. */
  timeoutMs: Type.Optional(integer(1, MAX_TIMER_MS)),
  /** `/tts audio`, `tts.convert` and the tts tool refuse longer text; Auto-TTS cuts a reply to it (and to 1500 characters). */
  maxTextLength: Type.Optional(integer(1)),
  providers: Type.Optional(Type.Record(Type.String({ minLength: 1 }), TtsProviderSettings)),
});
