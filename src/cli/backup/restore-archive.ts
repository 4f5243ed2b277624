import fs from "node:fs";
import path from "node:path";
import { CliError } from "../output.js";
import { entryPathInRoot, MANIFEST_NAME, PAYLOAD_DIR } from "./archive-layout.js";
import { forEachArchiveEntry, readEntryBody } from "./archive-reader.js";
import { isPathInside, realPathAllowingMissing } from "../../infra/real-path.js";
import type { ManifestEntry } from "./manifest.js";
import { type VerifiedArchive, verifyArchive } from "./verify-archive.js";

/** Where an archive path lands in the restored folder: `manifest.json` at its top, `payload/<x>` as `<x>`. */
export function restoredPath(target: string, archivePath: string): string {
  const rel = archivePath === MANIFEST_NAME ? MANIFEST_NAME : archivePath.slice(PAYLOAD_DIR.length + 1);
  return path.join(target, ...rel.split("/"));
}

/**
 * Refuses a target that is not new: it must not exist, or be an empty folder; and it must not be
 * the live state dir, inside it, or hold it (a restore never writes over the state it came from
 * or over the running gateway's).
 */
export function checkRestoreTarget(target: string, liveStateDir: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(target);
  } catch {
    stat = undefined;
  }
  if (stat && !stat.isDirectory()) throw new CliError(`--target ${target} exists and is not a folder: restore into a new or empty folder`);
  if (stat && fs.readdirSync(target).length > 0) throw new CliError(`--target ${target} is not empty: restore into a new or empty folder (a restore never writes over files)`);
  const live = realPathAllowingMissing(path.resolve(liveStateDir));
  const into = realPathAllowingMissing(path.resolve(target));
  if (isPathInside(live, into) || isPathInside(into, live)) {
    throw new CliError(
      `--target ${target} ${isPathInside(live, into) ? "is inside" : "holds"} the live state dir ${liveStateDir}: restore into a separate folder, then point OPENCLAW_STATE_DIR at it`,
    );
  }
}

/**
 * Restores a verified archive into `target`: the archive is verified first (SQLite snapshots
 * included), then extracted into a private staging folder beside the target — each file checked
 * again against the manifest as it is written, files never written over, symbolic links made
 * last so nothing is written through one, files keeping their modification times, folder modes
 * applied at the end — and only then moved
 * into place. On any failure the staging folder is removed and the target is left as it was.
 */
export async function restoreArchive(file: string, target: string, liveStateDir: string): Promise<VerifiedArchive> {
  checkRestoreTarget(target, liveStateDir);
  const verified = await verifyArchive(file);
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.restoring-`));
  try {
    await extractInto(staging, file, verified);
    checkRestoreTarget(target, liveStateDir);
    // rename(2) replaces an empty folder and fails on one that is not.
    fs.renameSync(staging, target);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return verified;
}

async function extractInto(staging: string, file: string, verified: VerifiedArchive): Promise<void> {
  const byPath = new Map<string, ManifestEntry>(verified.manifest.entries.map((entry) => [entry.archivePath, entry]));
  const root = verified.manifest.archiveRoot;
  const changed = (what: string) => new CliError(`${file} changed after it was verified (${what}); nothing was restored`);
  const folders: { dir: string; mode: number }[] = [];
  const links: { at: string; target: string }[] = [];
  await forEachArchiveEntry(file, async (header, body) => {
    const placed = entryPathInRoot(header.name, root);
    if ("unsafe" in placed) throw changed(placed.unsafe);
    const rel = placed.path;
    if (rel === MANIFEST_NAME) {
      await readEntryBody(body, { when: "all", open: () => fs.openSync(path.join(staging, MANIFEST_NAME), "wx", 0o600) });
      return;
    }
    const entry = byPath.get(rel);
    if (!entry) {
      body.resume();
      if (header.type === "directory") return;
      throw changed(`${rel} is not in the manifest`);
    }
    const destination = restoredPath(staging, rel);
    if (entry.type === "directory") {
      body.resume();
      fs.mkdirSync(destination, { recursive: true, mode: 0o700 });
      folders.push({ dir: destination, mode: entry.mode });
    } else if (entry.type === "symlink") {
      body.resume();
      links.push({ at: destination, target: entry.target });
    } else {
      fs.mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
      const read = await readEntryBody(body, { when: "all", open: () => fs.openSync(destination, "wx", entry.mode & 0o777) });
      if (read.size !== entry.size || read.sha256 !== entry.sha256) throw changed(`${rel} no longer matches its SHA-256`);
      // The modification time as archived: the gateway's repair of sessions.json compares it with the transcripts'.
      if (header.mtime) fs.utimesSync(destination, header.mtime, header.mtime);
    }
  });
  for (const link of links) {
    fs.mkdirSync(path.dirname(link.at), { recursive: true, mode: 0o700 });
    fs.symlinkSync(link.target, link.at);
  }
  for (const { dir, mode } of folders.sort((a, b) => b.dir.length - a.dir.length)) fs.chmodSync(dir, mode);
}
