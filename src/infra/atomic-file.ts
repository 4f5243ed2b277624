import fs from "node:fs";
import path from "node:path";

/**
 * Replace a file's content atomically: write a temp file beside it, fsync, rename over.
 * A crash leaves either the old or the new content, never a torn file. `modifiedAt` (epoch ms)
 * becomes the file's mtime, for a caller whose content is a snapshot of that moment.
 */
export function writeFileAtomicSync(filePath: string, data: string | Buffer, mode = 0o600, modifiedAt?: number): void {
  const dir = path.dirname(filePath);
  const tmp = path.join(dir, tempName(filePath));
  try {
    const fd = fs.openSync(tmp, "w", mode);
    try {
      fs.writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
      if (modifiedAt !== undefined) fs.futimesSync(fd, modifiedAt / 1000, modifiedAt / 1000);
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

/**
 * `writeFileAtomicSync` with the write and its fsync on libuv's thread pool, so a busy process
 * does not stall its event loop on the disk. The rename happens back on the main thread, and
 * only when `mayReplace()` still says so: a caller that wrote newer content in the meantime
 * keeps it (a late rename must never put older content back). Resolves true when replaced.
 * `modifiedAt` as for the synchronous write.
 */
export async function writeFileAtomicAsync(filePath: string, data: string, mode: number, mayReplace: () => boolean, modifiedAt?: number): Promise<boolean> {
  const dir = path.dirname(filePath);
  const tmp = path.join(dir, tempName(filePath));
  try {
    const handle = await fs.promises.open(tmp, "w", mode);
    try {
      await handle.writeFile(data, "utf8");
      if (modifiedAt !== undefined) await handle.utimes(modifiedAt / 1000, modifiedAt / 1000);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!mayReplace()) {
      fs.rmSync(tmp, { force: true });
      return false;
    }
    fs.renameSync(tmp, filePath);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  await fsyncDirectoryAsync(dir);
  return true;
}

async function fsyncDirectoryAsync(dir: string): Promise<void> {
  try {
    const handle = await fs.promises.open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // As in fsyncDirectory: the rename is atomic even where directories cannot be fsynced.
  }
}

/**
 * A second name `target` for `file`'s content that never replaces an existing file (EEXIST then):
 * a hard link where the filesystem has them, else an exclusive copy, fsynced. The new name is
 * durable once the caller fsyncs its directory.
 */
export function linkOrCopyExclusive(file: string, target: string): void {
  try {
    fs.linkSync(file, target);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw err;
  }
  fs.copyFileSync(file, target, fs.constants.COPYFILE_EXCL);
  const fd = fs.openSync(target, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
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

/**
 * A temp name beside `filePath` no other writer uses. node:crypto is loaded on the first write,
 * not with this module: the config loader imports it before the gateway's port opens.
 */
function tempName(filePath: string): string {
  const suffix = process.getBuiltinModule("node:crypto").randomBytes(4).toString("hex");
  return `.${path.basename(filePath)}.${process.pid}.${suffix}.tmp`;
}
