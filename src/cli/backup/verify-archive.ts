import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CliError } from "../output.js";
import { archivePathWithin, EXTERNAL_DIR, entryPathInRoot, MANIFEST_NAME, PAYLOAD_DIR, STATE_ASSET, symlinkStaysInside, WORKSPACES_DIR } from "./archive-layout.js";
import { forEachArchiveEntry, readEntryBody } from "./archive-reader.js";
import { MAX_MANIFEST_BYTES, type Manifest, type ManifestAsset, parseManifest } from "./manifest.js";
import { checkSqliteIntegrity } from "./sqlite-files.js";

/** What an archive was found to hold, as the archive itself has it (each body hashed as read). */
type FoundEntry = { type: "file"; size: number; sha256: string; sqliteCopy?: string } | { type: "directory" } | { type: "symlink"; target: string };

export interface VerifiedArchive {
  file: string;
  manifest: Manifest;
  files: number;
  bytes: number;
  /** The SQLite snapshots that passed `PRAGMA integrity_check`, by archive path. */
  sqliteChecked: string[];
}

/** A reason an archive cannot be trusted. */
export class ArchiveInvalidError extends CliError {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} failed verification: ${reason}`);
  }
}

/**
 * Checks an archive end to end: one root folder with exactly one `manifest.json`; every entry a
 * file, folder or symbolic link with a safe name (no absolute path, no `..`), none beneath a
 * symbolic link, and no link leading outside its asset; the manifest's entries and the archive's
 * entries the same, each file with the manifest's size and SHA-256; and each SQLite snapshot
 * passing `PRAGMA integrity_check`, on a copy in a private temporary folder that is deleted
 * afterwards. Throws ArchiveInvalidError with the first reason.
 */
export async function verifyArchive(file: string): Promise<VerifiedArchive> {
  const fail = (reason: string): never => {
    throw new ArchiveInvalidError(file, reason);
  };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return fail("no such file");
  }
  if (!stat.isFile()) fail("not a regular file");

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-backup-verify-"));
  try {
    const found = new Map<string, FoundEntry>();
    let root: string | undefined;
    let manifestText: string | undefined;
    let sqliteCopies = 0;
    try {
      await forEachArchiveEntry(file, async (header, body) => {
        root ??= header.name.split("/")[0]!;
        const placed = entryPathInRoot(header.name, root);
        if ("unsafe" in placed) return fail(placed.unsafe);
        const rel = placed.path;
        if (found.has(rel) || (rel === MANIFEST_NAME && manifestText !== undefined)) fail(`duplicate entry: ${header.name}`);
        if (header.type === "file" || header.type === "contiguous-file") {
          if (rel === MANIFEST_NAME) {
            if ((header.size ?? 0) > MAX_MANIFEST_BYTES) fail(`manifest.json is larger than ${MAX_MANIFEST_BYTES} bytes`);
            const chunks: Buffer[] = [];
            for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
            manifestText = Buffer.concat(chunks).toString("utf8");
            return;
          }
          let sqliteCopy: string | undefined;
          const read = await readEntryBody(body, {
            when: "sqlite",
            open: () => fs.openSync((sqliteCopy = path.join(scratch, `${++sqliteCopies}.sqlite`)), "wx", 0o600),
          });
          found.set(rel, { type: "file", size: read.size, sha256: read.sha256, ...(sqliteCopy ? { sqliteCopy } : {}) });
        } else if (header.type === "directory") {
          body.resume();
          if (rel !== "") found.set(rel, { type: "directory" });
        } else if (header.type === "symlink") {
          body.resume();
          found.set(rel, { type: "symlink", target: header.linkname ?? "" });
        } else {
          fail(`unsupported entry type "${header.type}" (only files, folders and symbolic links are restored): ${header.name}`);
        }
      });
    } catch (error) {
      if (error instanceof ArchiveInvalidError) throw error;
      fail((error as Error).message);
    }
    if (root === undefined) fail("the archive is empty");
    if (manifestText === undefined) fail(`no ${root}/${MANIFEST_NAME}`);
    let manifest: Manifest;
    try {
      manifest = parseManifest(manifestText!);
    } catch (error) {
      return fail((error as Error).message);
    }
    if (manifest.archiveRoot !== root) fail(`the manifest names archive root ${manifest.archiveRoot}, the entries are under ${root}/`);
    checkEntriesAgainstManifest(manifest, found, fail);

    const sqliteChecked: string[] = [];
    let bytes = 0;
    for (const entry of manifest.entries) {
      if (entry.type !== "file") continue;
      bytes += entry.size;
      if (entry.capture !== "sqlite") continue;
      const copy = (found.get(entry.archivePath) as { sqliteCopy?: string }).sqliteCopy;
      if (!copy) fail(`${entry.archivePath} is listed as a SQLite snapshot but is not a SQLite database`);
      try {
        await checkSqliteIntegrity(copy!);
      } catch (error) {
        fail(`SQLite snapshot ${entry.archivePath} fails ${(error as Error).message}`);
      }
      sqliteChecked.push(entry.archivePath);
    }
    return { file, manifest, files: manifest.entries.filter((e) => e.type === "file").length, bytes, sqliteChecked };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Folders the archive may hold without listing them: its root and `payload/`. */
const STRUCTURAL = new Set(["", PAYLOAD_DIR]);

function checkEntriesAgainstManifest(manifest: Manifest, found: Map<string, FoundEntry>, fail: (reason: string) => never): void {
  for (const asset of manifest.assets) checkAssetPath(asset, fail);
  const listed = new Set<string>();
  for (const entry of manifest.entries) {
    if (listed.has(entry.archivePath)) fail(`the manifest lists ${entry.archivePath} twice`);
    listed.add(entry.archivePath);
    const inArchive = found.get(entry.archivePath);
    if (!inArchive) fail(`missing from the archive: ${entry.archivePath} (listed in the manifest)`);
    if (inArchive!.type !== entry.type) fail(`${entry.archivePath} is a ${inArchive!.type} in the archive, a ${entry.type} in the manifest`);
    if (entry.type === "file" && inArchive!.type === "file") {
      if (inArchive.size !== entry.size) fail(`size mismatch: ${entry.archivePath} holds ${inArchive.size} bytes, the manifest says ${entry.size}`);
      if (inArchive.sha256 !== entry.sha256) fail(`sha256 mismatch: ${entry.archivePath} is not the file the manifest describes`);
    }
    if (entry.type === "symlink" && inArchive!.type === "symlink" && inArchive.target !== entry.target)
      fail(`${entry.archivePath} links to ${inArchive.target} in the archive, to ${entry.target} in the manifest`);
  }
  const { configArchivePath } = manifest.paths;
  if (configArchivePath !== null && !manifest.entries.some((entry) => entry.type === "file" && entry.archivePath === configArchivePath)) {
    fail(`the manifest's config file ${configArchivePath} is not one of its files`);
  }
  for (const workspace of manifest.workspaces) {
    const at = workspace.archivePath;
    if (at !== null && !manifest.entries.some((entry) => entry.type === "directory" && entry.archivePath === at)) fail(`the manifest's workspace ${at} is not one of its folders`);
  }
  const symlinks = [...found.entries()].filter(([, entry]) => entry.type === "symlink").map(([rel]) => rel);
  for (const [rel, entry] of found) {
    if (STRUCTURAL.has(rel) && entry.type === "directory") continue;
    if (!listed.has(rel)) fail(`entry not listed in the manifest: ${rel}`);
    const asset = manifest.assets.find((a) => archivePathWithin(rel, a.archivePath));
    if (!asset) fail(`entry outside every asset of the manifest: ${rel}`);
    const under = symlinks.find((link) => link !== rel && archivePathWithin(rel, link));
    if (under) fail(`entry beneath a symbolic link (restoring it would write through the link): ${rel} under ${under}`);
    if (entry.type === "symlink" && !symlinkStaysInside(rel, entry.target, asset!.archivePath)) {
      fail(`symbolic link escapes its folder: ${rel} -> ${entry.target}`);
    }
  }
}

/** An asset sits at `payload/state[/…]`, `payload/workspaces/<name>[/…]` or `payload/external/…`, nowhere else. */
function checkAssetPath(asset: ManifestAsset, fail: (reason: string) => never): void {
  const placed = entryPathInRoot(`r/${asset.archivePath}`, "r");
  const safe = "path" in placed ? placed.path : undefined;
  const allowed =
    safe !== undefined && (archivePathWithin(safe, STATE_ASSET) || (safe.startsWith(`${WORKSPACES_DIR}/`) && safe.split("/").length >= 3) || safe.startsWith(`${EXTERNAL_DIR}/`));
  if (!allowed) fail(`the manifest places an asset at ${asset.archivePath}, outside ${STATE_ASSET}, ${WORKSPACES_DIR}/<name> and ${EXTERNAL_DIR}/`);
}
