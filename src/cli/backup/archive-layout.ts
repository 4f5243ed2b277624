import path from "node:path";

/**
 * Where things sit inside a backup archive. Every entry is under one root folder,
 * `<timestamp>-openclaw-backup/`: its `manifest.json`, and `payload/` holding one folder per
 * asset — `state/` (the state dir), `workspaces/<agentId>/` (a workspace outside the state dir),
 * `external/<absolute path>` (a config file or `$include`d file outside both). Restore writes
 * `payload/`'s folders and the manifest straight into the target, so `<target>/state` is the
 * restored state dir.
 */
export const MANIFEST_NAME = "manifest.json";
export const PAYLOAD_DIR = "payload";
export const STATE_ASSET = `${PAYLOAD_DIR}/state`;
export const WORKSPACES_DIR = `${PAYLOAD_DIR}/workspaces`;
export const EXTERNAL_DIR = `${PAYLOAD_DIR}/external`;

/** A local time with its UTC offset, safe in a file name: `2026-03-09T08-00-00.000+08-00` (OpenClaw's format). */
export function backupTimestamp(now: Date): string {
  const offsetMinutes = -now.getTimezoneOffset();
  const local = new Date(now.getTime() + offsetMinutes * 60_000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const sign = offsetMinutes >= 0 ? "+" : "-";
  const abs = Math.abs(offsetMinutes);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}-${pad(local.getUTCMinutes())}-${pad(local.getUTCSeconds())}.${pad(local.getUTCMilliseconds(), 3)}` +
    `${sign}${pad(Math.floor(abs / 60))}-${pad(abs % 60)}`
  );
}

export function archiveRootName(now: Date): string {
  return `${backupTimestamp(now)}-openclaw-backup`;
}

/** The archive's default file name: its root folder's name with `.tar.gz`. */
export function defaultArchiveFileName(now: Date): string {
  return `${archiveRootName(now)}.tar.gz`;
}

/** The archive path of a file outside the state dir and the workspaces: its absolute path under `payload/external/`. */
export function externalArchivePath(absolutePath: string): string {
  return `${EXTERNAL_DIR}/${absolutePath.split(path.sep).filter(Boolean).join("/")}`;
}

/** Whether archive path `child` is `parent` or inside it (both relative, `/`-separated, normalized). */
export function archivePathWithin(child: string, parent: string): boolean {
  return child === parent || child.startsWith(`${parent}/`);
}

/**
 * An entry name as the archive holds it, made relative to the archive root, or the reason it is
 * unsafe: absolute names, `\`, NUL, empty, `.` or `..` segments, and names outside `root/` are
 * refused, so no entry can be written outside the folder it is restored into.
 */
export function entryPathInRoot(name: string, root: string): { path: string } | { unsafe: string } {
  const trimmed = name.replace(/\/+$/, "");
  if (!trimmed) return { unsafe: "empty entry name" };
  if (trimmed.includes("\0")) return { unsafe: `entry name with a NUL byte: ${JSON.stringify(name)}` };
  if (trimmed.startsWith("/") || /^[A-Za-z]:/.test(trimmed)) return { unsafe: `absolute entry path: ${name}` };
  if (trimmed.includes("\\")) return { unsafe: `entry path with a backslash: ${name}` };
  const segments = trimmed.split("/");
  if (segments.some((s) => s === ".." || s === "." || s === "")) return { unsafe: `path traversal in entry: ${name}` };
  if (segments[0] !== root) return { unsafe: `entry outside the archive root ${root}/: ${name}` };
  return { path: segments.slice(1).join("/") };
}

/**
 * Whether a symbolic link stays inside the asset folder that holds it, judged on its text alone:
 * a relative target whose `..` segments all come first and climb no higher than the asset
 * (`../notes/a.md`, `skills/x`). Such a link resolves the same way wherever the asset is restored,
 * through real folders only. Absolute targets, and `..` after a name (which would resolve through
 * whatever that name is), are refused.
 */
export function symlinkStaysInside(linkPath: string, target: string, assetPath: string): boolean {
  if (!target || target.includes("\0") || target.includes("\\") || target.startsWith("/")) return false;
  const segments = target.split("/").filter((s) => s !== "" && s !== ".");
  const climbs = segments.findIndex((s) => s !== "..");
  const up = climbs === -1 ? segments.length : climbs;
  if (segments.slice(up).includes("..")) return false;
  const depthBelowAsset = path.posix.relative(assetPath, path.posix.dirname(linkPath)).split("/").filter(Boolean).length;
  if (!archivePathWithin(linkPath, assetPath) || linkPath === assetPath) return false;
  return up <= depthBelowAsset;
}
