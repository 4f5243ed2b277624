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

/** OpenClaw's Auto-TTS modes; only `off` is taken here (cross-field-rules.ts refuses the others). */
export const TTS_AUTO_MODES = ["off", "always", "inbound", "tagged"] as const;

/** `tts`: text-to-speech for the `tts` tool, `/tts audio` and `tts.convert`. Auto-TTS is not supported: `auto` other than off, and `enabled: true`, are refused. */
export const TtsSchema = Type.Object({
  /** Auto-TTS (replies spoken on their own): only `off`, the default, is supported. */
  auto: Type.Optional(stringEnum(TTS_AUTO_MODES)),
  /** OpenClaw's legacy Auto-TTS toggle: only `false` is supported. */
  enabled: Type.Optional(Type.Boolean()),
  /** The speech provider; default `openai`. */
  provider: Type.Optional(NonEmptyString),
  /** One request's limit on the provider; a call's own `timeoutMs` wins. */
  timeoutMs: Type.Optional(integer(1, MAX_TIMER_MS)),
  /** Text longer than this is refused, never cut. */
  maxTextLength: Type.Optional(integer(1)),
  providers: Type.Optional(Type.Record(Type.String({ minLength: 1 }), TtsProviderSettings)),
});
