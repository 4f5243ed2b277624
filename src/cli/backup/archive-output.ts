import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fsyncDirectory, linkOrCopyExclusive } from "../../infra/atomic-file.js";
import { expandHome } from "../../infra/home-path.js";
import { CliError } from "../output.js";
import { defaultArchiveFileName } from "./archive-layout.js";
import type { BackupRoot } from "./backup-sources.js";
import { isPathInside, realPathAllowingMissing } from "../../infra/real-path.js";

/** The folders the backup reads: an archive written inside one would be read into itself. */
function holdingRoot(file: string, roots: BackupRoot[]): BackupRoot | undefined {
  const real = realPathAllowingMissing(path.resolve(file));
  return roots.find((root) => root.directory && isPathInside(root.sourcePath, real));
}

/**
 * Where the archive goes. Without `--output`: the default name in the current folder, or in the
 * home folder when the current one is inside what is backed up (OpenClaw's rule). `--output` an
 * existing folder (or a path ending in `/`): the default name in it; anything else is the file.
 * Refused: a file that exists (a backup never overwrites one) and a path inside a backed-up folder.
 */
export function resolveArchivePath(output: string | undefined, now: Date, roots: BackupRoot[], env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  const name = defaultArchiveFileName(now);
  let file: string;
  if (output === undefined) {
    const home = env.HOME?.trim() || os.homedir();
    const dir = holdingRoot(path.join(cwd, name), roots) ? home : cwd;
    file = path.join(dir, name);
    const holder = holdingRoot(file, roots);
    if (holder) throw new CliError(`the current folder and your home folder are both inside ${holder.sourcePath}, which is backed up: pass --output <dir|file> outside it`);
  } else {
    if (!output.trim()) throw new CliError("--output: expected a folder or a file path");
    const resolved = path.resolve(cwd, expandHome(output, env.HOME?.trim() || os.homedir()));
    const isDir = output.endsWith("/") || output.endsWith(path.sep) || isDirectory(resolved);
    file = isDir ? path.join(resolved, name) : resolved;
    const holder = holdingRoot(file, roots);
    if (holder) throw new CliError(`--output ${file} is inside ${holder.sourcePath}, which is backed up (the archive would be read into itself): write it elsewhere`);
  }
  if (fs.existsSync(file)) throw new CliError(`${file} already exists: a backup never overwrites a file; choose another --output`);
  return file;
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** A private file beside the archive to write into; its folder is created (0700) when missing. */
export function partialArchivePath(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString("hex")}.partial`);
}

/**
 * Gives the finished archive its name without ever replacing a file: a hard link (or an exclusive
 * copy), so the name never shows a half-written archive. The partial file is removed either way.
 */
export function publishArchive(partial: string, file: string): void {
  try {
    linkOrCopyExclusive(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new CliError(`${file} was created while the backup ran: a backup never overwrites a file; choose another --output`);
    throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
  fs.chmodSync(file, 0o600);
  fsyncDirectory(path.dirname(file));
}
