import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { pack, type Pack } from "tar-stream";
import { MANIFEST_NAME } from "./archive-layout.js";
import type { PlannedEntry, SkippedPath } from "./backup-walk.js";
import { completeLinesLength } from "./jsonl-complete-lines.js";
import type { Manifest, ManifestEntry } from "./manifest.js";
import { snapshotSqlite } from "./sqlite-files.js";

export interface WrittenArchive {
  manifest: Manifest;
  /** What the plan listed but could not be taken (vanished, or a SQLite file that could not be snapshotted). */
  skipped: SkippedPath[];
}

/**
 * Writes the planned entries into a new `.tar.gz` at `file` (created 0600, never over an existing
 * file), then `manifest.json` with every entry's archive path, size and SHA-256 as written. Each
 * entry is captured as its plan says: a SQLite database as an online snapshot (taken into a
 * private temporary folder, deleted afterwards), a JSONL file up to its last complete line,
 * anything else as the bytes read. The file is fsynced before this resolves.
 */
export async function writeArchive(file: string, entries: PlannedEntry[], manifestBase: Omit<Manifest, "entries">): Promise<WrittenArchive> {
  const root = manifestBase.archiveRoot;
  const tar = pack();
  const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  const written = pipeline(tar, zlib.createGzip(), out);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-backup-"));
  const manifestEntries: ManifestEntry[] = [];
  const skipped: SkippedPath[] = [];
  try {
    for (const entry of entries) {
      const captured = await captureEntry(tar, root, entry, scratch);
      if ("skipped" in captured) skipped.push({ sourcePath: entry.sourcePath, reason: captured.skipped });
      else manifestEntries.push(captured.entry);
    }
    const manifest: Manifest = { ...manifestBase, entries: manifestEntries };
    await addEntry(
      tar,
      { name: `${root}/${MANIFEST_NAME}`, type: "file", mode: 0o600, mtime: new Date(manifest.createdAt) },
      Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`),
    );
    tar.finalize();
    await written;
    const fd = fs.openSync(file, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return { manifest, skipped };
  } catch (error) {
    tar.destroy();
    await written.catch(() => {});
    throw error;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

type Captured = { entry: ManifestEntry } | { skipped: string };

async function captureEntry(tar: Pack, root: string, entry: PlannedEntry, scratch: string): Promise<Captured> {
  const name = `${root}/${entry.archivePath}`;
  const base = { archivePath: entry.archivePath, sourcePath: entry.sourcePath };
  if (entry.type === "directory") {
    await addEntry(tar, { name, type: "directory", mode: entry.mode });
    return { entry: { type: "directory", ...base, mode: entry.mode } };
  }
  if (entry.type === "symlink") {
    await addEntry(tar, { name, type: "symlink", linkname: entry.target, mode: 0o777 });
    return { entry: { type: "symlink", ...base, target: entry.target } };
  }
  let source = entry.sourcePath;
  if (entry.capture === "sqlite") {
    source = path.join(scratch, "snapshot.sqlite");
    try {
      await snapshotSqlite(entry.sourcePath, source);
    } catch (error) {
      fs.rmSync(source, { force: true });
      if (!fs.existsSync(entry.sourcePath)) return { skipped: "vanished before it was read" };
      return { skipped: `SQLite database not archived: its snapshot failed (${(error as Error).message})` };
    }
  }
  let fd: number;
  try {
    // O_NONBLOCK: a file replaced by a FIFO since the plan is reported below instead of blocking the open.
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
    fd = fs.openSync(source, O_RDONLY | O_NONBLOCK | (entry.followLink ? 0 : O_NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { skipped: "vanished before it was read" };
    if (code === "ELOOP") return { skipped: "became a symbolic link while the backup ran" };
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { skipped: "is no longer a regular file" };
    const size = entry.capture === "jsonl" ? completeLinesLength(fd, stat.size) : stat.size;
    const sha256 = await addFileBody(tar, { name, type: "file", mode: entry.mode, mtime: stat.mtime, size }, fd, entry.sourcePath);
    return { entry: { type: "file", ...base, capture: entry.capture, size, sha256, mode: entry.mode } };
  } finally {
    fs.closeSync(fd);
    if (entry.capture === "sqlite") fs.rmSync(source, { force: true });
  }
}

function addEntry(tar: Pack, header: Parameters<Pack["entry"]>[0], body: Buffer = Buffer.alloc(0)): Promise<void> {
  return new Promise((resolve, reject) => {
    tar.entry(header, body, (error) => (error ? reject(error) : resolve()));
  });
}

/** Streams the first `header.size` bytes of `fd` into the archive and returns their SHA-256. */
function addFileBody(tar: Pack, header: Parameters<Pack["entry"]>[0] & { size: number }, fd: number, sourcePath: string): Promise<string> {
  const hash = createHash("sha256");
  if (header.size === 0) return addEntry(tar, header).then(() => hash.digest("hex"));
  return new Promise((resolve, reject) => {
    let read = 0;
    const sink = tar.entry(header, (error) => {
      if (read < header.size) reject(new Error(`${sourcePath} shrank while it was read (${read} of ${header.size} bytes); run the backup again`));
      else if (error) reject(error);
      else resolve(hash.digest("hex"));
    });
    const source = fs.createReadStream("", { fd, start: 0, end: header.size - 1, autoClose: false });
    source.on("data", (chunk) => {
      read += chunk.length;
      hash.update(chunk);
    });
    source.on("error", reject);
    source.pipe(sink);
  });
}
