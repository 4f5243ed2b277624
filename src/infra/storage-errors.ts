import path from "node:path";

const CAUSES: Record<string, string> = {
  ENOSPC: "the disk is full; free some space and send again",
  EDQUOT: "the disk quota is exhausted; free some space and send again",
  EROFS: "the file system is read-only; check the mount of the state dir",
  EACCES: "permission denied; check the owner and mode of the state dir",
  EPERM: "operation not permitted; check the owner and mode of the state dir",
  ENOTDIR: "a path component is a file where a directory belongs; move it aside",
  EISDIR: "a directory stands where a file belongs; move it aside",
  EMFILE: "the gateway has too many open files; raise its open-file limit (ulimit -n)",
  ENFILE: "the system has too many open files",
};

/**
 * A state write that failed, told so the user can act: what could not be written (relative to
 * the state dir, so the operator's layout is not spelled out) and the likely fix. Undefined
 * when the error is not a storage failure.
 */
export function describeStorageError(err: unknown, stateDir: string): string | undefined {
  const { code, path: failedPath, syscall } = (err ?? {}) as NodeJS.ErrnoException;
  // mkdir meets a file where the directory should be (mkdir -p reports it as EEXIST).
  const cause = code === "EEXIST" && syscall === "mkdir" ? CAUSES.ENOTDIR : code ? CAUSES[code] : undefined;
  if (!cause) return undefined;
  const where = failedPath ? ` (${displayPath(failedPath, stateDir)})` : "";
  return `could not write to the state dir${where}: ${cause}`;
}

function displayPath(file: string, stateDir: string): string {
  const relative = path.relative(stateDir, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? path.basename(file) : path.join("<state>", relative);
}
