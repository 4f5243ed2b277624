import fs from "node:fs";
import type { TranscriptEntry } from "./transcript-lines.js";
import { parseEntryLine, readSlice } from "./transcript-reader.js";

/**
 * Entries read from one end of a transcript, for readers that need its first or last few
 * messages (session titles, previews) and must not read a long session's whole file.
 */
export interface TranscriptEnd {
  /** The complete, valid entries in the window, in file order (the header left out). */
  entries: TranscriptEntry[];
  /** The window covered the whole file: a larger one would find nothing more. */
  whole: boolean;
}

/** The entries in the first `maxBytes` of the file; a line the window cuts is left out. Empty when the file is missing. */
export function readTranscriptHead(file: string, maxBytes: number): TranscriptEnd {
  const chunk = readSlice(file, 0, maxBytes);
  if (chunk === null) return { entries: [], whole: true };
  const whole = chunk.length < maxBytes;
  const lines = chunk.toString("utf8").split("\n");
  if (!whole) lines.pop();
  return { entries: parseLines(lines), whole };
}

/** The entries in the last `maxBytes` of the file; a line the window cuts is left out. Empty when the file is missing. */
export function readTranscriptTailWindow(file: string, maxBytes: number): TranscriptEnd {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return { entries: [], whole: true };
  }
  const start = Math.max(0, size - maxBytes);
  const chunk = readSlice(file, start, size - start);
  if (chunk === null) return { entries: [], whole: true };
  const lines = chunk.toString("utf8").split("\n");
  if (start > 0) lines.shift();
  return { entries: parseLines(lines), whole: start === 0 };
}

function parseLines(lines: readonly string[]): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const line of lines) {
    const entry = parseEntryLine(line);
    if (entry) entries.push(entry);
  }
  return entries;
}
