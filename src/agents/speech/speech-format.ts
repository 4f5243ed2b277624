import type { SpeechFormat, SpeechHost } from "./speech-setup.js";

/** Channels that post speech as a voice message (Telegram's `sendVoice` wants Ogg/Opus); every other one gets an audio file. */
export const VOICE_NOTE_CHANNELS: readonly string[] = ["telegram"];

/** One format's file: its extension and content type. OpenAI's `opus` comes in an Ogg container. */
export const SPEECH_FILES: Record<SpeechFormat, { extension: string; mimeType: string }> = {
  opus: { extension: "ogg", mimeType: "audio/ogg" },
  mp3: { extension: "mp3", mimeType: "audio/mpeg" },
  wav: { extension: "wav", mimeType: "audio/wav" },
};

/** The format to ask for: the configured `responseFormat` always; else Opus for a voice-note channel, MP3 elsewhere. */
export function speechFormatFor(host: SpeechHost, channel: string | undefined): SpeechFormat {
  if (host.responseFormat) return host.responseFormat;
  return channel && VOICE_NOTE_CHANNELS.includes(channel.toLowerCase()) ? "opus" : "mp3";
}

/** Whether audio in this format can go as a voice message (only Ogg/Opus can). */
export function isVoiceCompatible(format: SpeechFormat): boolean {
  return format === "opus";
}
