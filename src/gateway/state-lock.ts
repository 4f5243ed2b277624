import fs from "node:fs";
import lockfile from "proper-lockfile";
import { writeFileAtomicSync } from "../infra/atomic-file.js";
import { isProcessAlive } from "../infra/process-alive.js";
import { ensurePrivateDir, gatewayStatePaths } from "../infra/paths.js";

export interface LockInfo {
  pid: number;
  host: string;
  port: number;
  startedAt: number;
  version: string;
  /** The deadline of this gateway's stop (src/gateway/shutdown-deadline.ts), for `gateway stop` to wait as long. */
  stopDeadlineMs?: number;
  /** The port serves TLS only (gateway.tls): clients use wss:// and https://. */
  tls?: boolean;
}

export class StateLockError extends Error {}

/**
 * The lock's directory has its mtime refreshed every UPDATE_MS by its holder; one not refreshed
 * for STALE_MS belongs to a process that is gone or frozen, and proper-lockfile takes it over.
 */
const STALE_MS = 30_000;
const UPDATE_MS = 10_000;

/**
 * One gateway per state dir: two would write the same session files. The lock is
 * proper-lockfile's (an atomically created directory whose mtime the holder keeps fresh); beside
 * it, `gateway.lock` says who holds it (pid, host, port) for the CLI. A lock whose holder's pid is
 * dead (kill -9, crash) is reclaimed at once rather than after the staleness window; so is one
 * naming this very pid (a container restarted as pid 1 again).
 */
export class StateLock {
  private lostHandler: (error: Error) => void = (error) => {
    process.stderr.write(`openclaw: ${error.message}\n`);
  };

  private constructor(
    private readonly paths: { lockFile: string; lockDir: string },
    private info: LockInfo,
  ) {}

  static acquire(stateDir: string, info: LockInfo): StateLock {
    const { lockFile, lockDir } = gatewayStatePaths(stateDir);
    let lock: StateLock | undefined;
    const options: lockfile.LockOptions = {
      realpath: false,
      lockfilePath: lockDir,
      stale: STALE_MS,
      update: UPDATE_MS,
      onCompromised: (error) => lock?.lostHandler(new StateLockError(`the gateway lock ${lockDir} was lost (${error.message}); another gateway may now own ${stateDir}`)),
    };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        lockfile.lockSync(lockFile, options);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw err;
        const holder = readLockFile(lockFile);
        if (!holder || (holder.pid !== process.pid && isProcessAlive(holder.pid))) {
          const who = holder ? `pid ${holder.pid}, port ${holder.port}` : "a gateway that is starting";
          throw new StateLockError(
            `another gateway is already running for state dir ${stateDir} (${who}); stop it with \`openclaw gateway stop\` or use a different OPENCLAW_STATE_DIR`,
          );
        }
        // The holder is gone: take its lock over.
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      lock = new StateLock({ lockFile, lockDir }, info);
      writeFileAtomicSync(lockFile, JSON.stringify(info));
      return lock;
    }
    throw new StateLockError(`could not acquire the gateway lock ${lockDir}`);
  }

  /** Called when the lock is lost while held (this process froze past the staleness window). */
  onLost(handler: (error: Error) => void): void {
    this.lostHandler = handler;
  }

  /**
   * Record the bound port once known (with --port 0 it is only known after listen), and the stop
   * deadline at each config reload. Replaced whole (temp file, rename): the CLI reads this file at
   * any moment, and a truncate-then-write showed it an empty file, so a command run during a
   * reload took the gateway for stopped.
   */
  update(patch: Partial<LockInfo>): void {
    this.info = { ...this.info, ...patch };
    writeFileAtomicSync(this.paths.lockFile, JSON.stringify(this.info));
  }

  release(): void {
    const current = readLockFile(this.paths.lockFile);
    if (current?.pid === process.pid) fs.rmSync(this.paths.lockFile, { force: true });
    try {
      lockfile.unlockSync(this.paths.lockFile, { realpath: false, lockfilePath: this.paths.lockDir });
    } catch (err) {
      // Already released, or lost to another gateway: nothing of ours is left to remove.
      if ((err as NodeJS.ErrnoException).code !== "ENOTACQUIRED") throw err;
    }
  }
}

/**
 * Runs `work` holding this state dir's gateway lock, for a command that changes the gateway's
 * files while no gateway runs (`openclaw sessions cleanup` without one). No `gateway.lock` is
 * written: this process is no gateway, so `gateway stop`, `gateway status` and clients never take
 * it for one, and a gateway starting meanwhile finds the lock held by nobody it can name and
 * refuses, as it does while another gateway starts. A `gateway.lock` a dead gateway left is
 * removed once the lock is taken, or a starting gateway would take the lock over from its dead
 * holder. `work` must be synchronous: the lock is not refreshed while it runs. Throws
 * StateLockError when another process holds the lock.
 */
export function withStateDirLock<T>(stateDir: string, work: () => T): T {
  const { lockFile, lockDir } = gatewayStatePaths(stateDir);
  ensurePrivateDir(stateDir);
  const options = { realpath: false, lockfilePath: lockDir };
  try {
    lockfile.lockSync(lockFile, { ...options, stale: STALE_MS });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw err;
    const holder = readLockFile(lockFile);
    throw new StateLockError(`the state dir ${stateDir} is locked (${lockDir}) by ${holder ? `pid ${holder.pid}, port ${holder.port}` : "a process that does not say who it is"}`);
  }
  try {
    fs.rmSync(lockFile, { force: true });
    return work();
  } finally {
    lockfile.unlockSync(lockFile, options);
  }
}

/**
 * The running gateway's lock info, or undefined when no live gateway holds the lock. The pid alone
 * does not say so: a gateway killed with -9 (or a reboot) leaves `gateway.lock` behind, and its
 * pid may since belong to another process, which `gateway stop` would then signal. A live
 * holder keeps the lock directory's mtime fresh (every UPDATE_MS); a stale one is not live.
 */
export function readLiveLock(stateDir: string): LockInfo | undefined {
  const info = readLock(stateDir);
  return info && isProcessAlive(info.pid) && lockRefreshed(stateDir) ? info : undefined;
}

/** Whether the lock's holder still refreshes it (see `readLiveLock`); false when there is no lock. */
export function lockRefreshed(stateDir: string): boolean {
  try {
    return Date.now() - fs.statSync(gatewayStatePaths(stateDir).lockDir).mtimeMs < STALE_MS;
  } catch {
    return false;
  }
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
