import { requestSpeech, type SpeechFailure } from "./openai-speech.js";
import { isVoiceCompatible, SPEECH_FILES, speechFormatFor } from "./speech-format.js";
import type { SpeechFormat, SpeechHost } from "./speech-setup.js";

export interface SpeechRequest {
  text: string;
  /** The channel the audio is for: it picks the format (a voice note for Telegram). */
  channel?: string;
  /** This request's limit on the provider; else the host's (`tts.timeoutMs`). */
  timeoutMs?: number;
}

export interface SynthesizedSpeech {
  bytes: Buffer;
  format: SpeechFormat;
  extension: string;
  mimeType: string;
  /** Ogg/Opus: it can go as a voice message. */
  voiceCompatible: boolean;
}

/** Why nothing was spoken: the text itself (`invalid`: empty or over `tts.maxTextLength`), or the provider's failure. */
export type SpeechResult = { ok: true; speech: SynthesizedSpeech } | { ok: false; failure: SpeechFailure | { kind: "invalid"; reason: string } };

/** The text as audio through the configured provider, in the format the channel takes. Text over the limit is refused, never cut. */
export async function synthesizeSpeech(host: SpeechHost, request: SpeechRequest, signal: AbortSignal): Promise<SpeechResult> {
  const text = request.text.trim();
  if (!text) return { ok: false, failure: { kind: "invalid", reason: "there is no text to speak" } };
  if (text.length > host.maxTextLength) {
    return { ok: false, failure: { kind: "invalid", reason: `the text is ${text.length} characters; at most ${host.maxTextLength} are spoken (tts.maxTextLength)` } };
  }
  const format = speechFormatFor(host, request.channel);
  const outcome = await requestSpeech(host, text, format, request.timeoutMs ?? host.timeoutMs, signal);
  if (!outcome.ok) return outcome;
  return { ok: true, speech: { bytes: outcome.bytes, format, ...SPEECH_FILES[format], voiceCompatible: isVoiceCompatible(format) } };
}
