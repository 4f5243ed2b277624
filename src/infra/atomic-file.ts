import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Replace a file's content atomically: write a temp file beside it, fsync, rename over.
 * A crash leaves either the old or the new content, never a torn file.
 */
export function writeFileAtomicSync(filePath: string, data: string | Buffer, mode = 0o600): void {
  const dir = path.dirname(filePath);
  const tmp = path.join(dir, `.${path.basename(filePath)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const fd = fs.openSync(tmp, "w", mode);
    try {
      fs.writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, filePath);
  } catch (err) {
    // Disk full or a failed rename must not leave temp files behind.
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDirectory(dir);
}

/** Makes a rename or a new name durable. */
export function fsyncDirectory(dir: string): void {
  try {
    const fd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  }
}
