import fs from "node:fs";
import { isProcessAlive } from "../infra/process-alive.js";
import { gatewayStatePaths } from "../infra/paths.js";

export interface LockInfo {
  pid: number;
  host: string;
  port: number;
  startedAt: number;
  version: string;
}

export class StateLockError extends Error {}

/**
 * One gateway per state dir: two would write the same session files. The lock is a file
 * created with O_EXCL holding the owner's pid; a lock whose pid is dead (kill -9, crash) is
 * reclaimed.
 */
export class StateLock {
  private constructor(private readonly file: string, private info: LockInfo) {}

  static acquire(stateDir: string, info: LockInfo): StateLock {
    const file = gatewayStatePaths(stateDir).lockFile;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const fd = fs.openSync(file, "wx", 0o600);
        fs.writeSync(fd, JSON.stringify(info));
        fs.closeSync(fd);
        return new StateLock(file, info);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const holder = readLock(stateDir);
      if (holder && holder.pid !== process.pid && isProcessAlive(holder.pid)) {
        throw new StateLockError(
          `another gateway is already running for state dir ${stateDir} (pid ${holder.pid}, port ${holder.port}); ` +
            "stop it with `openclaw gateway stop` or use a different OPENCLAW_STATE_DIR",
        );
      }
      // Stale (owner gone) or unreadable: take it over.
      fs.rmSync(file, { force: true });
    }
    throw new StateLockError(`could not acquire the gateway lock ${file}`);
  }

  /** Record the bound port once known (with --port 0 it is only known after listen). */
  update(patch: Partial<LockInfo>): void {
    this.info = { ...this.info, ...patch };
    fs.writeFileSync(this.file, JSON.stringify(this.info), { mode: 0o600 });
  }

  release(): void {
    const current = readLockFile(this.file);
    if (current?.pid === process.pid) fs.rmSync(this.file, { force: true });
  }
}

/** The running gateway's lock info, or undefined when no live gateway holds the lock. */
export function readLiveLock(stateDir: string): LockInfo | undefined {
  const info = readLock(stateDir);
  return info && isProcessAlive(info.pid) ? info : undefined;
}

export function readLock(stateDir: string): LockInfo | undefined {
  return readLockFile(gatewayStatePaths(stateDir).lockFile);
}

function readLockFile(file: string): LockInfo | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
    return typeof parsed.pid === "number" ? parsed : undefined;
  } catch {
    return undefined;
  }
}
