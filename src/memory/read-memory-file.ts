import fs from "node:fs/promises";
import path from "node:path";
import { hardLinkReason, unreadableReason } from "./memory-files.js";
import type { MemoryGetResult } from "./types.js";

export const MEMORY_GET_DEFAULT_LINES = 120;
/** `memory_get`'s character limit when `contextLimits.memoryGetMaxChars` sets none. */
export const MEMORY_GET_MAX_CHARS = 12_000;

/** The lines asked for, or why not (the tool turns each refusal into its coded tool error). */
export type MemoryGetOutcome =
  | { ok: true; result: MemoryGetResult }
  | { ok: false; refusal: "not-found" | "not-a-memory-file" }
  | { ok: false; refusal: "unreadable"; reason: string }
  | { ok: false; refusal: "offset-out-of-range"; from: number; totalLines: number };

/**
 * Lines of one memory file: MEMORY.md, memory.md, USER.md, a `.md` under `memory/`, or a `.md`
 * under an extra path. Anything else, and anything whose real location is outside those
 * places (a symlink, `..`), is refused, and so is a FIFO or a file with a second hard link. At most `lines` lines and `maxChars` characters.
 */
export async function readMemoryFile(
  workspaceDir: string,
  extraPaths: readonly string[],
  requested: string,
  from = 1,
  lines = MEMORY_GET_DEFAULT_LINES,
  maxChars = MEMORY_GET_MAX_CHARS,
): Promise<MemoryGetOutcome> {
  const absolute = path.resolve(workspaceDir, requested);
  const realWorkspace = await fs.realpath(workspaceDir).catch(() => workspaceDir);
  const real = await fs.realpath(absolute).catch(() => undefined);
  if (!real) return { ok: false, refusal: "not-found" };
  const allowed = await isAllowed(
    real,
    realWorkspace,
    extraPaths.map((p) => path.resolve(workspaceDir, p)),
  );
  if (!allowed) return { ok: false, refusal: "not-a-memory-file" };
  // Reading a FIFO would wait for a writer forever; a hard link may be a file outside.
  const stat = await fs.stat(real);
  if (!stat.isFile()) return { ok: false, refusal: "unreadable", reason: "not a regular file" };
  const linked = hardLinkReason(stat);
  if (linked) return { ok: false, refusal: "unreadable", reason: linked };

  const bytes = await fs.readFile(real);
  const reason = unreadableReason(bytes);
  if (reason) return { ok: false, refusal: "unreadable", reason };
  const all = bytes.toString("utf8").split("\n");
  if (all.length > 0 && all[all.length - 1] === "") all.pop();
  const start = Math.max(1, Math.floor(from));
  if (all.length > 0 && start > all.length) {
    return { ok: false, refusal: "offset-out-of-range", from: start, totalLines: all.length };
  }
  const wanted = all.slice(start - 1, start - 1 + Math.max(1, Math.floor(lines)));
  let text = "";
  let shown = 0;
  for (const line of wanted) {
    if (text.length + line.length + 1 > maxChars) {
      if (shown === 0) {
        text = line.slice(0, maxChars);
        shown = 1;
      }
      break;
    }
    text += (shown > 0 ? "\n" : "") + line;
    shown++;
  }
  const to = start + Math.max(shown, 1) - 1;
  const relPath = path.relative(realWorkspace, real).split(path.sep).join("/");
  return {
    ok: true,
    result: { path: relPath.startsWith("..") ? real : relPath, from: start, to, totalLines: all.length, text, truncated: to < all.length || shown < wanted.length },
  };
}

async function isAllowed(real: string, workspace: string, extras: string[]): Promise<boolean> {
  if (!real.toLowerCase().endsWith(".md")) return false;
  const rel = path.relative(workspace, real);
  const parts = rel.split(path.sep);
  if (!rel.startsWith("..") && !path.isAbsolute(rel)) {
    if (parts.length === 1 && ["MEMORY.md", "memory.md", "USER.md"].includes(parts[0]!)) return true;
    if (parts[0] === "memory" && parts.length > 1) return true;
  }
  for (const extra of extras) {
    const realExtra = await fs.realpath(extra).catch(() => extra);
    const inside = path.relative(realExtra, real);
    if (inside === "" || (!inside.startsWith("..") && !path.isAbsolute(inside))) return true;
  }
  return false;
}
