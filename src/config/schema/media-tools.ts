import { Type } from "@sinclair/typebox";
import { ApiBaseUrl, integer, NonEmptyString, StringList, stringEnum, wholeTimeoutSeconds } from "./primitives.js";

/** What an entry of `tools.media.models` is for; this gateway runs the `audio` (transcription) and `image` (description) ones. */
export const MEDIA_CAPABILITIES = ["image", "audio", "video"] as const;

/**
 * One entry of `tools.media.models`: a provider's transcription endpoint (OpenAI's
 * `/audio/transcriptions` wire) or a local command that prints the transcript.
 */
const MediaModelEntry = Type.Object({
  type: Type.Optional(stringEnum(["provider", "cli"])),
  provider: Type.Optional(NonEmptyString),
  model: Type.Optional(NonEmptyString),
  /** Where the provider's endpoint is (`<baseUrl>/audio/transcriptions`); else the provider's own. */
  baseUrl: Type.Optional(ApiBaseUrl),
  command: Type.Optional(NonEmptyString),
  /** Each may hold {{AttachmentPath}}, {{AttachmentDir}}, {{AttachmentContentType}}, {{Language}}. */
  args: Type.Optional(StringList),
  capabilities: Type.Optional(Type.Array(stringEnum(MEDIA_CAPABILITIES))),
  language: Type.Optional(NonEmptyString),
  prompt: Type.Optional(NonEmptyString),
  maxBytes: Type.Optional(integer(1)),
  maxChars: Type.Optional(integer(1)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
});

/** `tools.media.audio`: voice notes and audio files transcribed before the agent reads the message. */
const AudioSettings = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  language: Type.Optional(NonEmptyString),
  prompt: Type.Optional(NonEmptyString),
  maxBytes: Type.Optional(integer(1)),
  maxChars: Type.Optional(integer(1)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
  /** Post the transcript back to the chat before the reply. */
  echoTranscript: Type.Optional(Type.Boolean()),
  /** The echo's text; `{transcript}` is replaced by the transcript. */
  echoFormat: Type.Optional(NonEmptyString),
});

/** `tools.media.image`: images described for an agent whose model takes no images. */
const ImageSettings = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  prompt: Type.Optional(NonEmptyString),
  maxBytes: Type.Optional(integer(1)),
  maxChars: Type.Optional(integer(1)),
  timeoutSeconds: Type.Optional(wholeTimeoutSeconds()),
});

export const MediaToolsSchema = Type.Object({
  models: Type.Optional(Type.Array(MediaModelEntry)),
  audio: Type.Optional(AudioSettings),
  image: Type.Optional(ImageSettings),
});
