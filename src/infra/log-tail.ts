import fs from "node:fs";

export interface LogTailOptions {
  /** Byte offset returned by the previous read; absent → the last `limit` lines. */
  cursor?: number;
  /** At most this many lines (default 200). */
  limit?: number;
  /** At most this many bytes read per call (default 250 000). */
  maxBytes?: number;
}

export interface LogTail {
  file: string;
  /** Where the next read starts: pass it back as `cursor`. */
  cursor: number;
  size: number;
  lines: string[];
  /** More lines were there than `limit`/`maxBytes` let through (tail: older ones; follow: newer ones). */
  truncated?: boolean;
  /** The file is shorter than the cursor (rotated or truncated): this answer starts over from its tail. */
  reset?: boolean;
}

export const DEFAULT_TAIL_LINES = 200;
export const DEFAULT_TAIL_BYTES = 250_000;

/**
 * Reads a log file in whole lines: the last lines when no cursor is given, else the complete
 * lines written after the cursor. A line still being written (no newline yet) waits for the
 * next call, so a follower never sees half a line.
 */
export function readLogTail(file: string, opts: LogTailOptions = {}): LogTail {
  const limit = opts.limit ?? DEFAULT_TAIL_LINES;
  const maxBytes = opts.maxBytes ?? DEFAULT_TAIL_BYTES;
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { file, cursor: 0, size: 0, lines: [], ...(opts.cursor ? { reset: true } : {}) };
    throw err;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const reset = opts.cursor !== undefined && opts.cursor > size;
    if (opts.cursor === undefined || reset) return { ...tail(fd, file, size, limit, maxBytes), ...(reset ? { reset: true } : {}) };
    return follow(fd, file, size, opts.cursor, limit, maxBytes);
  } finally {
    fs.closeSync(fd);
  }
}

function readRange(fd: number, start: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const read = fs.readSync(fd, buf, 0, length, start);
  return buf.subarray(0, read);
}

function tail(fd: number, file: string, size: number, limit: number, maxBytes: number): LogTail {
  const start = Math.max(0, size - maxBytes);
  const text = readRange(fd, start, size - start).toString("utf8");
  const end = text.lastIndexOf("\n") + 1;
  // A read that starts mid-file begins mid-line: that first piece is dropped.
  const complete = text
    .slice(0, end)
    .split("\n")
    .slice(start > 0 ? 1 : 0, -1);
  const lines = complete.slice(-limit);
  const cursor = start + Buffer.byteLength(text.slice(0, end));
  return { file, cursor, size, lines, ...(start > 0 || complete.length > lines.length ? { truncated: true } : {}) };
}

function follow(fd: number, file: string, size: number, cursor: number, limit: number, maxBytes: number): LogTail {
  const buf = readRange(fd, cursor, Math.min(maxBytes, size - cursor));
  const capped = cursor + buf.length < size;
  // A single line longer than maxBytes would stall the cursor: it comes in pieces instead.
  const end = buf.lastIndexOf(0x0a) + 1 || (capped ? buf.length : 0);
  const text = buf.subarray(0, end).toString("utf8");
  const all = text.endsWith("\n") ? text.split("\n").slice(0, -1) : text === "" ? [] : [text];
  const lines = all.slice(0, limit);
  const consumed = lines.length === all.length ? end : lines.reduce((bytes, line) => bytes + Buffer.byteLength(line) + 1, 0);
  return { file, cursor: cursor + consumed, size, lines, ...(lines.length < all.length || capped ? { truncated: true } : {}) };
}
