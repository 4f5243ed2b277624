import fs from "node:fs";

const CHUNK = 64 * 1024;

/**
 * How many of a JSONL file's first `size` bytes are complete lines: up to and including its last
 * `\n`, 0 when there is none. Transcripts and the other JSONL files are only appended to, so this
 * prefix is a state the file really had; a line being written at that moment is left for the next
 * backup. Reads backwards from `size`, a chunk at a time.
 */
export function completeLinesLength(fd: number, size: number): number {
  const buffer = Buffer.alloc(CHUNK);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const read = fs.readSync(fd, buffer, 0, end - start, start);
    const at = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}
