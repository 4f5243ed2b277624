import type { AudioFile } from "./audio-file.js";
import { transcribeWithCommand } from "./cli-transcription.js";
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
 * Tries the attempts in order until one transcribes the file: an attempt whose `maxBytes` the file
 * is over is skipped, one that fails or outlasts its timeout gives way to the next. The transcript
 * is trimmed and cut at `maxChars`.
 */
export async function transcribeAudio(file: AudioFile, attempts: readonly TranscriptionAttempt[]): Promise<TranscriptionOutcome> {
  if (file.bytes < MIN_AUDIO_BYTES) return { kind: "too-short" };
  const failures: string[] = [];
  for (const attempt of attempts) {
    if (attempt.kind === "unusable") {
      failures.push(`${attempt.label}: ${attempt.reason}`);
      continue;
    }
    if (file.bytes > attempt.maxBytes) {
      failures.push(`${attempt.label}: the file is ${file.bytes} bytes, over its maxBytes (${attempt.maxBytes})`);
      continue;
    }
    const signal = AbortSignal.timeout(attempt.timeoutMs);
    try {
      const raw = attempt.kind === "cli" ? await transcribeWithCommand(file, attempt, signal) : await transcribeWithProvider(file, attempt, signal);
      const text = raw.trim();
      return { kind: "transcribed", text: attempt.maxChars && text.length > attempt.maxChars ? text.slice(0, attempt.maxChars) : text, via: attempt.label };
    } catch (error) {
      const reason = signal.aborted ? `no transcript within ${Math.round(attempt.timeoutMs / 1000)} s (timeoutSeconds)` : error instanceof Error ? error.message : String(error);
      failures.push(`${attempt.label}: ${reason}`);
    }
  }
  return { kind: "failed", failures };
}

/**
 * OpenClaw's `[Audio]` block: the message's own text (a caption) first when it has one, then the
 * transcript. A channel's placeholder for a message without text (`<media:voice>`) is no caption.
 */
export function audioBody(userText: string, transcript: string): string {
  const caption = /^<media:[a-z_]+>$/.test(userText.trim()) ? "" : userText.trim();
  return `[Audio]\n${caption ? `User text:\n${caption}\n` : ""}Transcript:\n${transcript}`;
}
