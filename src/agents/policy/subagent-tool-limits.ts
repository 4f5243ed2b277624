/**
 * What a sub-agent may not use (see docs/tools.md), on top of every configured layer. The lists
 * are built in, not config, so no allow entry can lift them: a child is a background worker for
 * one task, not a second main agent.
 */

/**
 * Every sub-agent loses these: gateway control, scheduled jobs, talking to other sessions or
 * people, and the progress card (the parent session the user follows owns it).
 */
export const SUBAGENT_DENIED_TOOLS: readonly string[] = ["gateway", "agents_list", "session_status", "cron", "message", "sessions_send", "conversations_*", "progress_card"];

/**
 * A leaf (a child that may not spawn) also loses the tools for managing children of its own,
 * and reading other sessions: sessions_search goes with sessions_history (OpenClaw's docs name
 * no rule of its own for it).
 */
export const SUBAGENT_LEAF_DENIED_TOOLS: readonly string[] = ["sessions_spawn", "subagents", "sessions_list", "sessions_history", "sessions_search"];

/** Depth 2 is always a leaf, whatever `maxSpawnDepth` says. */
export const MAX_SUBAGENT_DEPTH = 2;

/**
 * The deepest level that may exist under `maxSpawnDepth` (unset: 1). 0 means no sub-agents at
 * all; values above 2 act as 2.
 */
export function effectiveMaxSpawnDepth(maxSpawnDepth: number | undefined): number {
  const configured = maxSpawnDepth ?? 1;
  return Math.max(0, Math.min(MAX_SUBAGENT_DEPTH, Math.floor(configured)));
}

/** A session at `depth` may spawn when its children (depth + 1) are still within the limit. */
export function maySpawnAtDepth(depth: number, maxSpawnDepth: number | undefined): boolean {
  return depth + 1 <= effectiveMaxSpawnDepth(maxSpawnDepth);
}
