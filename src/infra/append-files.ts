import fs from "node:fs";
import path from "node:path";
import { fsyncDirectory } from "./atomic-file.js";
import { FsyncBarrier, fsyncFile } from "./fsync-barrier.js";

/**
 * Append-only files kept open between appends, with group-committed fsync. A busy gateway
 * appends to the same few transcripts many times a second; opening and closing the file for
 * every append and again for every fsync was a tenth of a turn's main-thread time.
 *
 * Safety against writing into a file that is no longer at its path (a transcript replaced by
 * rotation, or recreated after it vanished): every append compares the path's inode with the
 * open descriptor's and reopens when they differ, so appends always land in the file the path
 * names now. Descriptors beyond `maxOpen` are closed least recently used first, never while an
 * fsync on them is running.
 */
export class AppendFiles {
  private readonly handles = new Map<string, Handle>();
  private readonly sizes = new Map<string, number>();
  /** Files created and not yet fsynced: their directory's entry for them is not durable either. */
  private readonly unsyncedNew = new Set<string>();
  private readonly barrier = new FsyncBarrier((file) => this.fsyncCurrent(file));

  constructor(private readonly maxOpen = 64) {}

  /** Whether `file` exists now (one stat, which the append that follows reuses). */
  exists(file: string): boolean {
    return this.presence(file) !== "missing";
  }

  /** What stands at `file` now: a regular file, nothing, or something else (a directory). */
  presence(file: string): "file" | "missing" | "other" {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    this.lastStat = stat ? { file, ino: stat.ino, dev: stat.dev } : undefined;
    if (stat?.isFile()) this.sizes.set(file, stat.size);
    else this.sizes.delete(file);
    return !stat ? "missing" : stat.isFile() ? "file" : "other";
  }

  /** Writes `bytes` at the end of `file` (which must exist); they reach the page cache, not yet the disk. */
  append(file: string, bytes: Uint8Array): void {
    const handle = this.handleFor(file);
    let offset = 0;
    try {
      while (offset < bytes.length) offset += fs.writeSync(handle.fd, bytes, offset, bytes.length - offset);
    } finally {
      const size = this.sizes.get(file);
      if (size !== undefined) this.sizes.set(file, size + offset);
    }
  }

  /**
   * The size of `file` as of its last `presence` check plus what was appended here since, or
   * undefined when not known. Writes by another process after that check are not counted.
   */
  sizeOf(file: string): number | undefined {
    return this.sizes.get(file);
  }

  /**
   * `file` was just created and nothing of it is durable yet, its name included: the next fsync
   * of it (`sync` or `syncNow`) also fsyncs its directory.
   */
  created(file: string): void {
    this.unsyncedNew.add(file);
  }

  /** fsync on the calling thread: for the rare append that must be durable before returning. */
  syncNow(file: string): void {
    fs.fsyncSync(this.handleFor(file).fd);
    if (!this.unsyncedNew.has(file)) return;
    fsyncDirectory(path.dirname(file));
    this.unsyncedNew.delete(file);
  }

  /**
   * Resolves once an fsync that started after every append made so far to `file` has finished.
   * Callers in the same moment share one fsync, which runs on libuv's thread pool.
   */
  sync(file: string): Promise<void> {
    return this.barrier.sync(file);
  }

  /** Stops using the descriptor for `file` (archived or deleted): closed now or after its fsync. */
  forget(file: string): void {
    this.sizes.delete(file);
    this.unsyncedNew.delete(file);
    const handle = this.handles.get(file);
    if (!handle) return;
    this.handles.delete(file);
    this.release(handle);
  }

  /** Closes every descriptor (in-flight fsyncs close theirs when they finish). */
  closeAll(): void {
    for (const handle of this.handles.values()) this.release(handle);
    this.handles.clear();
    this.sizes.clear();
    this.unsyncedNew.clear();
  }

  private lastStat: { file: string; ino: number; dev: number } | undefined;

  private handleFor(file: string): Handle {
    const stat = this.lastStat?.file === file ? this.lastStat : statOf(file);
    this.lastStat = undefined;
    const cached = this.handles.get(file);
    if (cached) {
      this.handles.delete(file);
      if (cached.ino === stat.ino && cached.dev === stat.dev) {
        this.handles.set(file, cached); // most recently used last
        return cached;
      }
      this.release(cached);
    }
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND);
    const handle: Handle = { fd, ino: stat.ino, dev: stat.dev, syncing: 0, released: false };
    this.handles.set(file, handle);
    while (this.handles.size > this.maxOpen) {
      const [oldestFile, oldest] = this.handles.entries().next().value!;
      this.handles.delete(oldestFile);
      this.release(oldest);
    }
    return handle;
  }

  /**
   * fsync through the descriptor open for `file` when it starts, or through a fresh one (the
   * kernel flushes a file's pages whichever descriptor asks), never through one already released.
   */
  private fsyncCurrent(file: string): Promise<void> {
    const handle = this.handles.get(file);
    const synced = handle ? this.fsyncHandle(handle) : fsyncFile(file);
    if (!this.unsyncedNew.has(file)) return synced;
    // A new file's name is durable once its directory is fsynced too (as fsyncDirectory: some
    // filesystems refuse fsync on a directory, where creating the name is durable without it).
    return synced.then(() =>
      fsyncFile(path.dirname(file))
        .catch(() => {})
        .then(() => {
          this.unsyncedNew.delete(file);
        }),
    );
  }

  private fsyncHandle(handle: Handle): Promise<void> {
    handle.syncing += 1;
    return new Promise<void>((resolve, reject) => {
      fs.fsync(handle.fd, (err) => {
        handle.syncing -= 1;
        if (handle.released && handle.syncing === 0) closeQuietly(handle.fd);
        if (err) reject(err);
        else resolve();
      });
    });
  }

  /** Closes now, or when the last fsync on it finishes (its number must not be reused under it). */
  private release(handle: Handle): void {
    if (handle.released) return;
    handle.released = true;
    if (handle.syncing === 0) closeQuietly(handle.fd);
  }
}

interface Handle {
  fd: number;
  ino: number;
  dev: number;
  /** fsyncs running on this descriptor. */
  syncing: number;
  /** No longer used for appends; closed once `syncing` is 0. */
  released: boolean;
}

function statOf(file: string): { ino: number; dev: number } {
  const stat = fs.statSync(file);
  return { ino: stat.ino, dev: stat.dev };
}

/** Synchronous: closing a local file does not wait on the disk, and a replaced file's old
 * descriptor is then gone before the append that noticed the replacement returns. */
function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed or invalid: nothing left to release.
  }
}
