import { firstAnswer } from "./media-attempts.js";
import type { MediaFile } from "./media-file.js";
import { runMediaCommand } from "./media-command.js";
import { transcribeWithProvider } from "./provider-transcription.js";
import type { TranscriptionAttempt } from "./transcription-plan.js";

/** Shorter than this, a recording holds no speech worth sending anywhere. */
export const MIN_AUDIO_BYTES = 1024;

export type TranscriptionOutcome =
  | { kind: "transcribed"; text: string; via: string }
  | { kind: "too-short" }
  /** Every attempt failed or was skipped; each says why (none: nothing is set up). */
  | { kind: "failed"; failures: string[] };

/**
 * Tries the attempts in order until one transcribes the file (firstAnswer: too large for one
 * skips it, a failure or timeout goes to the next). An empty transcript is an answer: no speech.
 */
export async function transcribeAudio(file: MediaFile, attempts: readonly TranscriptionAttempt[]): Promise<TranscriptionOutcome> {
  if (file.bytes < MIN_AUDIO_BYTES) return { kind: "too-short" };
  const outcome = await firstAnswer(
    file,
    attempts,
    (attempt, signal) => (attempt.kind === "cli" ? runMediaCommand(file, attempt, signal) : transcribeWithProvider(file, attempt, signal)),
    { noun: "transcript", emptyIsAnswer: true },
  );
  return outcome.ok ? { kind: "transcribed", text: outcome.text, via: outcome.via } : { kind: "failed", failures: outcome.failures };
}

/**
 * OpenClaw's `[Audio]` block: the message's own text (a caption) first when it has one, then the
 * transcript. A channel's placeholder for a message without text (`<media:voice>`) is no caption.
 */
export function audioBody(userText: string, transcript: string): string {
  const caption = /^<media:[a-z_]+>$/.test(userText.trim()) ? "" : userText.trim();
  return `[Audio]\n${caption ? `User text:\n${caption}\n` : ""}Transcript:\n${transcript}`;
}
