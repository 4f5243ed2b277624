import { createHash } from "node:crypto";
import fs from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { extract, type Headers } from "tar-stream";
import { isSqliteHeader } from "./sqlite-files.js";

export type ArchiveHeader = Headers & { name: string };

/**
 * Calls `onEntry` for each entry of a `.tar.gz`, one at a time, in archive order; `onEntry` must
 * read the body (readEntryBody) before it resolves. The first error, from the file, gzip, the tar
 * format or `onEntry`, stops the read and is thrown.
 */
export async function forEachArchiveEntry(file: string, onEntry: (header: ArchiveHeader, body: Readable) => Promise<void>): Promise<void> {
  const tar = extract();
  tar.on("entry", (header, body, next) => {
    onEntry(header, body).then(
      () => next(),
      (error: Error) => tar.destroy(error),
    );
  });
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), tar);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code.startsWith("Z_")) throw new Error(`not a valid gzip file (${(error as Error).message})`);
    if (/tar header|Unexpected end of data/i.test((error as Error).message)) throw new Error(`not a valid tar archive (${(error as Error).message})`);
    throw error;
  }
}

export interface EntryBody {
  size: number;
  sha256: string;
  /** Whether the body starts with SQLite's header. */
  sqlite: boolean;
}

/**
 * Reads an entry's body to its end, hashing it. `sink` gets the bytes too: always (`"all"`), or
 * only when the body turns out to be a SQLite database (`"sqlite"`, for integrity checks), in
 * which case `open` is called once to make the file they go to.
 */
export async function readEntryBody(body: Readable, sink?: { when: "all" | "sqlite"; open: () => number }): Promise<EntryBody> {
  const hash = createHash("sha256");
  let size = 0;
  let head: Buffer[] | undefined = [];
  let fd: number | undefined;
  let sqlite = false;
  const write = (chunk: Buffer) => {
    if (fd !== undefined) fs.writeSync(fd, chunk);
  };
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      if (!head) {
        write(chunk);
        continue;
      }
      head.push(chunk);
      if (size < 16) continue;
      sqlite = isSqliteHeader(Buffer.concat(head).subarray(0, 16));
      if (sink && (sink.when === "all" || sqlite)) fd = sink.open();
      for (const part of head) write(part);
      head = undefined;
    }
    if (head && sink?.when === "all") {
      fd = sink.open();
      for (const part of head) write(part);
    }
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return { size, sha256: hash.digest("hex"), sqlite };
}
