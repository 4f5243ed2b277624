import fs from "node:fs";
import path from "node:path";
import type { CompactionSettings, CompactionThresholds } from "../../sessions/compaction/index.js";

/** The silent turn's instructions, added to the system prompt. */
export const MEMORY_FLUSH_SYSTEM_PROMPT =
  "Housekeeping turn: this session is close to automatic compaction, when its older messages will be replaced by a summary. Store durable memories now. Nobody reads your reply to this turn.";

/** The silent turn's message: where to write, how, and the silent answer when there is nothing to keep. */
export function memoryFlushPrompt(now: Date): string {
  const file = `memory/${localDate(now)}.md`;
  return [
    "Pre-compaction memory flush.",
    `Save what is worth remembering beyond this session (decisions, facts about the user, open tasks, lessons) in ${file}; create memory/ if needed.`,
    "Append only: if the file exists, add new content at its end and never overwrite or rewrite what is already there.",
    "MEMORY.md, SOUL.md, AGENTS.md, USER.md, IDENTITY.md and the other workspace bootstrap files are read-only here. Do not create other file names (no times or suffixes).",
    "If there is nothing worth storing, reply with NO_REPLY only.",
  ].join("\n");
}

export interface MemoryFlushState {
  contextTokens: number;
  thresholds: CompactionThresholds;
  settings: CompactionSettings;
  /** The session row's counters: a flush is done at most once per compaction cycle. */
  compactionCount: number | undefined;
  memoryFlushCompactionCount: number | undefined;
  /** Turns the runtime started (heartbeats, announcements) never flush. */
  runtimeTurn: boolean;
  /** Asked last, only when everything else says yes (see isWorkspaceWritable). */
  workspaceWritable: () => boolean;
}

/** Whether the silent flush turn should run after this turn (O(1) but for one access(2) when it is due). */
export function memoryFlushDue(state: MemoryFlushState): boolean {
  if (!state.settings.enabled || !state.settings.memoryFlush.enabled || state.runtimeTurn) return false;
  if (state.contextTokens < state.thresholds.flushAt) return false;
  if (state.memoryFlushCompactionCount !== undefined && state.memoryFlushCompactionCount === (state.compactionCount ?? 0)) return false;
  return state.workspaceWritable();
}

/** A read-only workspace (mounted ro, or without write permission) gets no flush. */
export function isWorkspaceWritable(workspaceDir: string | undefined): boolean {
  if (!workspaceDir) return false;
  try {
    fs.accessSync(workspaceDir, fs.constants.W_OK);
    const memoryDir = path.join(workspaceDir, "memory");
    if (fs.existsSync(memoryDir)) fs.accessSync(memoryDir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
