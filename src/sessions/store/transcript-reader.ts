import fs from "node:fs";
import { messageProblem } from "./transcript-message-check.js";
import type { TranscriptEntry, TranscriptHeader } from "./transcript-lines.js";

/**
 * Reading transcripts never throws on content: a crash can tear the last line, a disk error or
 * a hand edit can break one in the middle. Such lines are skipped and reported as warnings, so
 * one bad line never costs the user the rest of the conversation.
 */

export interface ParsedTranscript {
  header: TranscriptHeader | null;
  entries: TranscriptEntry[];
  warnings: string[];
}

export function parseTranscript(text: string): ParsedTranscript {
  const lines = text.split("\n");
  const endsCleanly = text.endsWith("\n");
  const result: ParsedTranscript = { header: null, entries: [], warnings: [] };
  let sawFirst = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    const isLast = i === lines.length - 1;
    const value = tryParse(line);
    if (!isObject(value)) {
      result.warnings.push(isLast && !endsCleanly ? `line ${i + 1}: incomplete last line (an interrupted write) skipped` : `line ${i + 1}: not a JSON object; skipped`);
      sawFirst = true;
      continue;
    }
    if (!sawFirst) {
      sawFirst = true;
      if (value.type === "session" && typeof value.id === "string") {
        result.header = value as TranscriptHeader;
        continue;
      }
      result.warnings.push("line 1: the transcript has no session header");
    }
    const problem = entryProblem(value);
    if (problem) {
      result.warnings.push(`line ${i + 1}: ${problem}; skipped`);
      continue;
    }
    result.entries.push(value as TranscriptEntry);
  }
  if (!sawFirst) result.warnings.push("the transcript is empty (no session header)");
  return result;
}

export function readTranscriptFile(file: string): ParsedTranscript {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { header: null, entries: [], warnings: [code === "ENOENT" ? "the transcript file is missing" : `cannot read the transcript: ${code ?? String(err)}`] };
  }
  return parseTranscript(text);
}

/** The header alone (first line), without reading a possibly large file; null when absent or invalid. */
export function readTranscriptHeader(file: string): TranscriptHeader | null {
  const chunk = readSlice(file, 0, 64 * 1024);
  if (chunk === null) return null;
  const firstLine = chunk.toString("utf8").split("\n", 1)[0]!.trim();
  const value = tryParse(firstLine);
  return isObject(value) && value.type === "session" && typeof value.id === "string" ? (value as TranscriptHeader) : null;
}

export interface TranscriptTail {
  /** Id of the last valid entry (the parent of the next append); null when there is none. */
  lastId: string | null;
  /** The file does not end with a newline (a torn write): the next append must start a new line. */
  needsNewline: boolean;
}

/**
 * The state needed to append, read from the end of the file: a 64 KiB window, doubled until a
 * complete entry is found or the whole file was read, so opening a long session stays cheap.
 * Null when the file is missing or empty: there is no header to append after.
 */
export function readTranscriptTail(file: string): TranscriptTail | null {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return null;
  }
  if (size === 0) return null;
  const lastByte = readSlice(file, size - 1, 1);
  const needsNewline = lastByte !== null && lastByte[0] !== 0x0a;
  for (let window = 64 * 1024; ; window *= 2) {
    const start = Math.max(0, size - window);
    const chunk = readSlice(file, start, size - start);
    if (chunk === null) return { lastId: null, needsNewline };
    const lines = chunk.toString("utf8").split("\n");
    // A window that starts mid-file may begin inside a line; that fragment is not evidence.
    const first = start === 0 ? 0 : 1;
    for (let i = lines.length - 1; i >= first; i -= 1) {
      const value = tryParse(lines[i]!.trim());
      if (isObject(value) && value.type !== "session" && typeof value.id === "string") return { lastId: value.id, needsNewline };
    }
    if (start === 0) return { lastId: null, needsNewline };
  }
}

/** One transcript line as an entry (not the header); undefined for a blank, torn or invalid line. */
export function parseEntryLine(line: string): TranscriptEntry | undefined {
  const value = tryParse(line.trim());
  if (!isObject(value) || entryProblem(value) !== undefined) return undefined;
  return value as TranscriptEntry;
}

function entryProblem(value: Record<string, unknown>): string | undefined {
  if (typeof value.type !== "string") return "entry without a type";
  if (value.type === "session") return "a second session header";
  if (value.type === "message") {
    const message = value.message;
    if (!isObject(message) || typeof message.role !== "string") return "message entry without a valid message";
    return messageProblem(message);
  }
  return undefined;
}

/** Up to `length` bytes of `file` from `position`; null when it cannot be read. */
export function readSlice(file: string, position: number, length: number): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, read);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function tryParse(line: string): unknown {
  if (line.length === 0) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
