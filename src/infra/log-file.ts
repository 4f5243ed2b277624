import fs from "node:fs";

/** What the log file has been through: the operator's view of a disk that fills up. */
export interface LogFileHealth {
  file: string;
  /** Lines that could not be written (full disk, removed directory…) and were dropped. */
  droppedLines: number;
  lastError?: { code: string; at: number };
  rotations: number;
}

/**
 * The gateway's log file: JSON lines appended synchronously (a crash loses nothing logged before
 * it), created 0600, rotated to `<file>.1` when it passes `maxFileBytes` (0: never). A failed
 * write is never fatal: the line is dropped and counted, and the next line tries again, so the
 * log resumes by itself when space returns.
 */
export class LogFile {
  private fd: number | undefined;
  private size = 0;
  private readonly state: LogFileHealth;

  constructor(
    private readonly file: string,
    private readonly maxFileBytes = 0,
  ) {
    this.state = { file, droppedLines: 0, rotations: 0 };
  }

  /** pino's destination contract: one serialized line per call. */
  write(line: string): boolean {
    try {
      const fd = this.open();
      const bytes = Buffer.byteLength(line);
      if (this.maxFileBytes > 0 && this.size > 0 && this.size + bytes > this.maxFileBytes) return this.rotateThenWrite(line, bytes);
      fs.writeSync(fd, line);
      this.size += bytes;
    } catch (err) {
      this.drop(err);
    }
    return true;
  }

  health(): LogFileHealth {
    return { ...this.state, ...(this.state.lastError ? { lastError: { ...this.state.lastError } } : {}) };
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // Closing a descriptor whose writes failed may fail again; nothing is left to lose.
    }
    this.fd = undefined;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    this.fd = fs.openSync(this.file, "a", 0o600);
    const stat = fs.fstatSync(this.fd);
    // A file created by an older build (or by hand) with wider rights is narrowed.
    if (stat.isFile() && (stat.mode & 0o077) !== 0) fs.fchmodSync(this.fd, 0o600);
    this.size = stat.isFile() ? stat.size : 0;
    return this.fd;
  }

  private rotateThenWrite(line: string, bytes: number): boolean {
    this.close();
    fs.renameSync(this.file, `${this.file}.1`);
    this.state.rotations += 1;
    const fd = this.open();
    fs.writeSync(fd, line);
    this.size += bytes;
    return true;
  }

  private drop(err: unknown): void {
    this.state.droppedLines += 1;
    this.state.lastError = { code: (err as NodeJS.ErrnoException).code ?? "EIO", at: Date.now() };
    // A descriptor that failed may be stale (directory removed); the next line reopens.
    this.close();
  }
}
