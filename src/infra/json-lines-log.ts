import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "./atomic-file.js";
import { AppendFiles } from "./append-files.js";
import { ensurePrivateDir } from "./paths.js";

/**
 * An append-only JSON-lines file for small crash-safe state (inbound dedupe keys, outbound
 * delivery records). `append` writes the line before it returns (page cache only);
 * `whenDurable` resolves once an fsync covering it has finished, shared with every other line
 * written meanwhile (group commit), so a busy channel pays neither an fsync per message nor a
 * blocked event loop. `rewrite` replaces the whole file atomically: compaction.
 *
 * A crash mid-append leaves at most one torn last line; `read` skips it, and KeyedJsonLinesLog
 * rewrites the file at open so nothing is ever appended behind a torn fragment.
 */
export class JsonLinesLog {
  private lines = 0;
  private closed = false;
  /** Whether this process appended anything: until then there is nothing for an fsync to cover. */
  private appended = false;
  /** The file stays open between appends; fsyncs go through that descriptor. */
  private readonly files = new AppendFiles(1);

  /** Every line that parses as JSON, in file order; a missing file reads as empty. */
  static read(file: string): { values: unknown[]; skippedLines: number } {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    const values: unknown[] = [];
    let skippedLines = 0;
    for (const raw of text.split("\n")) {
      if (raw.trim().length === 0) continue;
      try {
        values.push(JSON.parse(raw));
      } catch {
        skippedLines += 1;
      }
    }
    return { values, skippedLines };
  }

  /** Creates the parent directory (0700) if needed; the file itself appears at the first write. */
  constructor(readonly file: string) {
    ensurePrivateDir(path.dirname(file));
  }

  /** Lines in the file: those of the last rewrite plus every append since. */
  get lineCount(): number {
    return this.lines;
  }

  append(value: unknown): void {
    this.assertOpen();
    const bytes = Buffer.from(`${JSON.stringify(value)}\n`, "utf8");
    if (!this.files.exists(this.file)) fs.closeSync(fs.openSync(this.file, "a", 0o600));
    this.files.append(this.file, bytes);
    this.lines += 1;
    this.appended = true;
  }

  /** Replaces the file with exactly these lines (atomic and fsynced before it returns). */
  rewrite(values: Iterable<unknown>): void {
    this.assertOpen();
    // The open descriptor keeps pointing at the replaced inode; the next append notices and reopens.
    const lines: string[] = [];
    for (const value of values) lines.push(JSON.stringify(value));
    writeFileAtomicSync(this.file, lines.length > 0 ? `${lines.join("\n")}\n` : "", 0o600);
    this.lines = lines.length;
  }

  /** Blocks until every line appended so far is on disk (for the rare caller that cannot await). */
  syncNow(): void {
    if (this.files.exists(this.file)) this.files.syncNow(this.file);
  }

  /** Resolves once every line appended so far is on disk (at once when none was: `rewrite` syncs its own). */
  whenDurable(): Promise<void> {
    if (!this.appended) return Promise.resolve();
    return this.files.sync(this.file);
  }

  close(): void {
    this.files.closeAll();
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`${this.file} is closed`);
  }
}
