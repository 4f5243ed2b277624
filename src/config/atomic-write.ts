import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Replaces `filePath` so readers (and the config watcher) see either the old or the new
 * contents, never a torn write: temp file in the same directory (same filesystem, so the
 * rename is atomic), fsync, rename, then fsync the directory so the rename itself survives
 * a crash. The file is created 0600 because it usually holds tokens and API keys.
 */
export function writeFileAtomicSync(filePath: string, contents: string, mode = 0o600): void {
  const dir = path.dirname(filePath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tempPath = path.join(dir, `.${path.basename(filePath)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tempPath, "wx", mode);
    fs.writeFileSync(fd, contents, "utf8");
    fs.fchmodSync(fd, mode); // the umask may have narrowed it; make it exact
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tempPath, filePath);
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tempPath, { force: true });
    throw err;
  }
  syncDirectory(dir);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Not supported everywhere (Windows, some network filesystems); the data is already safe.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
