import fs from "node:fs";
import path from "node:path";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError } from "../tool-result.js";
import type { ToolResult } from "../types.js";
import { isPathInside, realPathAllowingMissing } from "../../infra/real-path.js";

/** Longer paths are refused outright: no real file needs one, and Linux's PATH_MAX is 4096. */
export const MAX_PATH_CHARS = 4096;

export type WorkspacePathResolution = { ok: true; absolute: string; relative: string } | { ok: false; result: ToolResult };

/**
 * Maps a path the model asked for onto the real file system, refusing anything that would leave
 * the workspace. Relative paths resolve against the workspace; absolute ones must already lie in
 * it. The check runs on real paths (symlinks followed, including a dangling last link and links
 * in parent directories), so a link inside the workspace cannot smuggle a read or write outside;
 * a regular file with more than one hard link is refused for the same reason.
 * `absolute` is that real path: callers use it directly, which keeps the window between the check
 * and the file operation as small as it can be without O_NOFOLLOW gymnastics.
 */
export function resolveWorkspacePath(workspaceDir: string, requested: unknown): WorkspacePathResolution {
  const root = realWorkspaceRoot(workspaceDir);
  const refuse = (kind: "pathInvalid" | "pathOutsideWorkspace", problem: string): WorkspacePathResolution => ({
    ok: false,
    result: toolError(TOOL_ERRORS[kind](problem, root)),
  });

  if (typeof requested !== "string" || requested.trim() === "") return refuse("pathInvalid", "The path is empty.");
  if (requested.includes("\0")) return refuse("pathInvalid", "The path contains a NUL byte.");
  if (requested.length > MAX_PATH_CHARS) {
    return refuse("pathInvalid", `The path is ${requested.length} characters long; at most ${MAX_PATH_CHARS} are accepted.`);
  }

  const lexical = path.resolve(root, requested);
  if (!isPathInside(root, lexical)) {
    return refuse("pathOutsideWorkspace", `"${shorten(requested)}" resolves outside the workspace.`);
  }

  let real: string;
  try {
    real = realPathAllowingMissing(lexical);
  } catch (error) {
    return refuse("pathInvalid", `"${shorten(requested)}" cannot be resolved: ${errorCode(error)}.`);
  }
  if (!isPathInside(root, real)) {
    return refuse("pathOutsideWorkspace", `"${shorten(requested)}" goes through a symbolic link that leads outside the workspace.`);
  }
  // A second hard link can be anywhere on the same file system: reading or writing through it
  // would reach a file outside the workspace (docs/security.md, "File tools").
  const links = fs.statSync(real, { throwIfNoEntry: false });
  if (links?.isFile() && links.nlink > 1) return { ok: false, result: toolError(TOOL_ERRORS.pathHardLinked(shorten(requested), links.nlink)) };
  return { ok: true, absolute: real, relative: path.relative(root, real) || "." };
}

function realWorkspaceRoot(workspaceDir: string): string {
  // The contract says the caller already realpath'd it; doing it again costs one syscall and
  // keeps the comparison honest if a caller forgot (e.g. /tmp behind a symlink).
  try {
    return fs.realpathSync.native(workspaceDir);
  } catch {
    return path.resolve(workspaceDir);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
