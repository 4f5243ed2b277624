import fs from "node:fs";

/**
 * Group commit for append-only files: writes happen synchronously (they only reach the page
 * cache), and `sync(file)` resolves once an fsync that started after those writes has finished.
 * Concurrent callers share one fsync, and the fsync runs on libuv's thread pool, so a busy
 * gateway neither blocks its event loop on the disk nor pays one fsync per message.
 */
export class FsyncBarrier {
  private readonly files = new Map<string, { inFlight?: Promise<void>; queued?: Promise<void> }>();

  /** `fsync(file)` does one fsync; by default it opens the path, fsyncs and closes. */
  constructor(private readonly fsync: (file: string) => Promise<void> = fsyncFile) {}

  sync(file: string): Promise<void> {
    let state = this.files.get(file);
    if (!state) {
      state = {};
      this.files.set(file, state);
    }
    const s = state;
    // An fsync not yet started will cover every write made before it starts, ours included.
    if (s.queued) return s.queued;
    const start = (): Promise<void> => {
      s.queued = undefined;
      const run = this.fsync(file);
      s.inFlight = run;
      void run
        .catch(() => {})
        .finally(() => {
          if (s.inFlight === run) s.inFlight = undefined;
          if (!s.inFlight && !s.queued) this.files.delete(file);
        });
      return run;
    };
    if (!s.inFlight) return start();
    // The running fsync may have started before our write: queue one more behind it.
    s.queued = s.inFlight.catch(() => {}).then(start);
    return s.queued;
  }
}

/**
 * open + fsync + close with the callback API: on a busy gateway this runs several times per
 * message, and the promise API's FileHandle costs about ten times more main-thread time per call.
 */
export function fsyncFile(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(file, "r", (openErr, fd) => {
      if (openErr) return reject(openErr);
      fs.fsync(fd, (syncErr) => {
        fs.close(fd, (closeErr) => {
          const err = syncErr ?? closeErr;
          if (err) reject(err);
          else resolve();
        });
      });
    });
  });
}
