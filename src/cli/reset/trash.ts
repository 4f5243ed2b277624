import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where a moved path went, or why it stayed. */
export type TrashOutcome = { kind: "missing" } | { kind: "trashed"; to: string } | { kind: "failed"; reason: string };

/**
 * The user's Trash: `~/.Trash` on macOS, else the freedesktop home trash,
 * `$XDG_DATA_HOME/Trash` (default `~/.local/share/Trash`) with its `files` and `info` folders.
 */
export function trashDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME?.trim() || os.homedir();
  if (process.platform === "darwin") return path.join(home, ".Trash");
  return path.join(env.XDG_DATA_HOME?.trim() || path.join(home, ".local", "share"), "Trash");
}

/**
 * Moves `target` to the Trash by renaming it there, so it can be put back: on Linux under a free
 * name in `files/` with a `.trashinfo` naming where it was and when (as file managers restore
 * it). Nothing is ever deleted: a target on another filesystem (rename cannot cross it) stays
 * where it is, and the outcome says why.
 */
export function moveToTrash(target: string, env: NodeJS.ProcessEnv = process.env, now = new Date()): TrashOutcome {
  if (!fs.existsSync(target) && !isSymlink(target)) return { kind: "missing" };
  const trash = trashDir(env);
  const freedesktop = process.platform !== "darwin";
  const filesDir = freedesktop ? path.join(trash, "files") : trash;
  const infoDir = path.join(trash, "info");
  try {
    fs.mkdirSync(filesDir, { recursive: true, mode: 0o700 });
    if (freedesktop) fs.mkdirSync(infoDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    return { kind: "failed", reason: `cannot make the Trash folder ${filesDir}: ${(err as Error).message}` };
  }
  const name = freeName(filesDir, infoDir, path.basename(target), freedesktop);
  const info = path.join(infoDir, `${name}.trashinfo`);
  try {
    // The info file first, made exclusively: it reserves the name, and a trashed file never lacks one.
    if (freedesktop) fs.writeFileSync(info, trashInfo(path.resolve(target), now), { flag: "wx", mode: 0o600 });
    fs.renameSync(target, path.join(filesDir, name));
    return { kind: "trashed", to: path.join(filesDir, name) };
  } catch (err) {
    if (freedesktop) fs.rmSync(info, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    return { kind: "failed", reason: code === "EXDEV" ? `it is on another filesystem than the Trash (${trash})` : (err as Error).message };
  }
}

function freeName(filesDir: string, infoDir: string, base: string, freedesktop: boolean): string {
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? base : `${base}.${n}`;
    const taken = fs.existsSync(path.join(filesDir, name)) || isSymlink(path.join(filesDir, name)) || (freedesktop && fs.existsSync(path.join(infoDir, `${name}.trashinfo`)));
    if (!taken) return name;
  }
}

/** The freedesktop `.trashinfo`: the original path, percent-encoded, and the local deletion time. */
function trashInfo(original: string, now: Date): string {
  const encoded = original
    .split("/")
    .map((part) => encodeURIComponent(part))
    .join("/");
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return `[Trash Info]\nPath=${encoded}\nDeletionDate=${date}\n`;
}

function isSymlink(target: string): boolean {
  try {
    return fs.lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}
