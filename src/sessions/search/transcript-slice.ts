import type { FileHandle } from "node:fs/promises";
import { shownText } from "../history/shown-text.js";
import { isMessageEntry } from "../store/transcript-lines.js";
import { parseEntryLine } from "../store/transcript-reader.js";
import { withdrawnTargetOf } from "../store/withdrawn-messages.js";
import type { IndexStep } from "./search-index-db.js";

export interface TranscriptSlice {
  /** The complete lines read, without their newlines. */
  lines: string[];
  /** The offset just past the last complete line: where the next slice starts. */
  end: number;
  /** Bytes read to find them. */
  bytesRead: number;
}

/**
 * The complete lines of a transcript from byte `from` (a line start) on, reading about
 * `maxBytes`, never past `size`. A line longer than that is read whole (the read doubles until
 * it ends). A last line without its newline is being written (or was torn by a crash): it is
 * left for a later slice, so `end` is always a line end and nothing is indexed half.
 */
export async function readTranscriptSlice(handle: FileHandle, from: number, size: number, maxBytes: number): Promise<TranscriptSlice> {
  let want = Math.min(maxBytes, size - from);
  let bytesRead = 0;
  for (;;) {
    const buffer = Buffer.alloc(want);
    const read = (await handle.read(buffer, 0, want, from)).bytesRead;
    bytesRead += read;
    const chunk = buffer.subarray(0, read);
    const lastNewline = chunk.lastIndexOf(0x0a);
    if (lastNewline >= 0) return { lines: chunk.subarray(0, lastNewline).toString("utf8").split("\n"), end: from + lastNewline + 1, bytesRead };
    if (read < want || from + read >= size) return { lines: [], end: from, bytesRead };
    want = Math.min(want * 2, size - from);
  }
}

/**
 * What transcript lines change in the index, in order: each user or assistant message with
 * text becomes a message step (its text as `sessions_history` shows it, shownText), and each
 * withdrawal marker (withdrawn-messages.ts) a withdraw step. Lines the transcript readers skip
 * (torn, not JSON, a malformed message) are skipped here too, as are headers, tool results,
 * messages without text and every other entry type.
 */
export function indexSteps(lines: readonly string[]): IndexStep[] {
  const steps: IndexStep[] = [];
  for (const line of lines) {
    const entry = parseEntryLine(line);
    if (!entry) continue;
    if (isMessageEntry(entry)) {
      const { message } = entry;
      if (message.role !== "user" && message.role !== "assistant") continue;
      const text = shownText(message, false);
      if (!text) continue;
      const at = typeof message.timestamp === "number" ? message.timestamp : Date.parse(entry.timestamp) || 0;
      steps.push({ kind: "message", entryId: entry.id, role: message.role, at, text });
      continue;
    }
    const withdrawn = withdrawnTargetOf(entry);
    if (withdrawn !== undefined) steps.push({ kind: "withdraw", entryId: withdrawn });
  }
  return steps;
}
