/**
 * The part of tar-stream 2.x (bundled; it ships no types) the backup commands use: `pack()` writes
 * entries one after another, `extract()` emits each entry with its body stream.
 */
declare module "tar-stream" {
  import type { Readable, Writable } from "node:stream";

  export type EntryType =
    | "file"
    | "link"
    | "symlink"
    | "character-device"
    | "block-device"
    | "directory"
    | "fifo"
    | "contiguous-file"
    | "pax-header"
    | "pax-global-header"
    | "gnu-long-link-path"
    | "gnu-long-path";

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: EntryType;
    linkname?: string | null;
    uid?: number;
    gid?: number;
  }

  export interface Pack extends Readable {
    /** Starts an entry; with a buffer, writes it whole. Without one, returns the stream its body goes to. */
    entry(header: Headers, buffer: Buffer | string, callback?: (error?: Error | null) => void): Writable;
    entry(header: Headers, callback?: (error?: Error | null) => void): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(event: "entry", listener: (header: Required<Pick<Headers, "name" | "type">> & Headers, stream: Readable, next: (error?: unknown) => void) => void): this;
    on(event: "finish" | "close", listener: () => void): this;
    on(event: "error", listener: (error: Error) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}
