import fs from "node:fs";
import path from "node:path";

/** Files the gateway keeps in its state dir. One place, so the CLI and the daemon agree. */
export function gatewayStatePaths(stateDir: string) {
  return {
    stateDir,
    lockFile: path.join(stateDir, "gateway.lock"),
    /** The lock itself (a directory, made atomically by proper-lockfile); `lockFile` says who holds it. */
    lockDir: path.join(stateDir, "gateway.lock.d"),
    pidFile: path.join(stateDir, "gateway.pid"),
    logDir: path.join(stateDir, "logs"),
    logFile: path.join(stateDir, "logs", "gateway.log"),
    /** Stability bundles a failing gateway leaves behind (src/infra/stability/stability-bundle.ts). */
    stabilityDir: path.join(stateDir, "logs", "stability"),
    daemonOutFile: path.join(stateDir, "logs", "gateway.out.log"),
    credentialsDir: path.join(stateDir, "credentials"),
    tokenFile: path.join(stateDir, "credentials", "gateway.token"),
  };
}

/** Create a private directory (0700). Tightens the mode when the directory already exists. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const mode = fs.statSync(dir).mode & 0o777;
    if (mode !== 0o700) fs.chmodSync(dir, 0o700);
  } catch {
    // A directory we cannot chmod (not ours) still works; permissions are advisory here.
  }
}
