import { TOOL_ERRORS, type ToolRefusal } from "../tool-errors.js";
import type { SubagentsArgs } from "../tools/index.js";
import type { TranscriptMessage } from "../types.js";
import { formatDuration, taskLabel } from "./announce-format.js";
import type { SpawnRefusal } from "./spawn-checks.js";
import type { SubagentService } from "./subagent-service.js";
import { RECENT_MINUTES, type SubagentRunRecord } from "./types.js";

/** What a control action says: text for the model or the chat, or a refusal with a way forward. */
export type ControlResult = { ok: true; text: string; details?: unknown } | ({ ok: false } & SpawnRefusal);

const LOG_DEFAULT_LIMIT = 20;
const LOG_TEXT_CHARS = 500;

/**
 * The `subagents` tool and the `/subagents` command (see docs/subagents.md, "Control"): list, kill,
 * steer, log, info — always confined to the caller's own tree of sub-agents.
 */
export async function runSubagentsAction(service: SubagentService, callerKey: string, args: SubagentsArgs, now = Date.now()): Promise<ControlResult> {
  const rows = listRows(service, callerKey, now);
  if (args.action === "list") return listResult(service, rows, now);
  if (!args.target?.trim()) return refuse(TOOL_ERRORS.subagentsTargetMissing(args.action));
  if (args.action === "kill" && args.target.trim().toLowerCase() === "all") {
    const killed = rows.filter((r) => !r.endedAt && r.requesterSessionKey === callerKey).flatMap((r) => service.kill(r));
    return {
      ok: true,
      text: killed.length > 0 ? `Killed ${killed.length} sub-agent${killed.length === 1 ? "" : "s"}.` : "No sub-agent was running.",
      details: { killed: killed.map((r) => r.runId) },
    };
  }
  const record = resolveTarget(service.registry.descendantsOf(callerKey), rows, args.target.trim());
  if (!record) return refuse(TOOL_ERRORS.subagentNotFound(args.target));
  switch (args.action) {
    case "kill": {
      const killed = service.kill(record);
      if (killed.length === 0) return { ok: true, text: `${name(record)} had already ended (${record.outcome ?? "ended"}).` };
      const below = killed.length - 1;
      return {
        ok: true,
        text: `Killed ${name(record)}${below > 0 ? ` and ${below} sub-agent${below === 1 ? "" : "s"} below it` : ""}; its announcement will say so.`,
        details: { killed: killed.map((r) => r.runId) },
      };
    }
    case "steer": {
      const outcome = await service.steer(record, args.message ?? "", callerKey);
      if (!outcome.ok) return { ok: false, ...outcome.refusal };
      const how = !outcome.restarted
        ? "its next turn has the new instructions"
        : outcome.settled
          ? "its run was stopped and restarted with the new instructions"
          : "its run is still stopping (not within 5 s); the new instructions run next";
      return { ok: true, text: `Steered ${name(record)}: ${how}.` };
    }
    case "log":
      return logResult(record, service.childHistory(record), args.limit);
    case "info":
      return { ok: true, text: infoText(record, now), details: record };
  }
}

/** The caller's sub-agents that are active or ended in the last 30 minutes, oldest first (the `#n` order). */
export function listRows(service: SubagentService, callerKey: string, now: number): SubagentRunRecord[] {
  const recent = now - RECENT_MINUTES * 60_000;
  return service.registry
    .descendantsOf(callerKey)
    .filter((r) => !r.endedAt || r.endedAt >= recent)
    .sort((a, b) => a.createdAt - b.createdAt);
}

function listResult(service: SubagentService, rows: SubagentRunRecord[], now: number): ControlResult {
  if (rows.length === 0) return { ok: true, text: `No sub-agents active or ended in the last ${RECENT_MINUTES} minutes.`, details: { subagents: [] } };
  const lines = rows.map((r, i) => {
    const indent = "  ".repeat(Math.max(0, r.depth - (rows[0]?.depth ?? 1)));
    return `${indent}#${i + 1} [${statusOf(service, r)}] ${name(r)} · ${formatDuration((r.endedAt ?? now) - r.createdAt)} · ${r.childSessionKey}`;
  });
  return {
    ok: true,
    text: lines.join("\n"),
    details: { subagents: rows.map((r) => ({ runId: r.runId, childSessionKey: r.childSessionKey, label: r.label, status: statusOf(service, r), outcome: r.outcome })) },
  };
}

export function statusOf(service: SubagentService, record: SubagentRunRecord): string {
  if (record.endedAt) return record.outcome ?? "ended";
  if (!record.roundOpen) return "idle";
  return service.registry.childrenOf(record.childSessionKey).some((c) => c.roundOpen) ? "waiting for its sub-agents" : "running";
}

/** `#n` (in `rows`' order), `last`, a session key, a runId or its prefix (≥ 4 characters), or a label. */
export function resolveTarget(tree: SubagentRunRecord[], rows: SubagentRunRecord[], target: string): SubagentRunRecord | undefined {
  const lowered = target.toLowerCase();
  if (lowered === "last") return rows[rows.length - 1];
  const index = /^(#?)(\d+)$/.exec(target);
  // `#n`, or a bare number within the list; a longer number is a runId prefix made of digits.
  if (index && (index[1] === "#" || Number(index[2]) <= rows.length)) return rows[Number(index[2]) - 1];
  return (
    tree.find((r) => r.childSessionKey === lowered || r.runId === lowered) ??
    tree.find((r) => r.label?.toLowerCase() === lowered) ??
    (lowered.length >= 4 ? tree.filter((r) => r.runId.startsWith(lowered)).at(-1) : undefined)
  );
}

function logResult(record: SubagentRunRecord, history: readonly TranscriptMessage[], limit = LOG_DEFAULT_LIMIT): ControlResult {
  const shown = history.slice(-limit).map(logLine).filter(Boolean);
  if (shown.length === 0) return { ok: true, text: `${name(record)} has no messages.` };
  return { ok: true, text: `${name(record)} — last ${shown.length} message${shown.length === 1 ? "" : "s"}:\n${shown.join("\n")}` };
}

function logLine(message: TranscriptMessage): string {
  const content = message.content;
  const parts: string[] = [];
  if (typeof content === "string") parts.push(content);
  else if (Array.isArray(content)) {
    for (const block of content as { type?: string; text?: string; name?: string }[]) {
      if (block.type === "text" && block.text) parts.push(block.text);
      else if (block.type === "toolCall") parts.push(`[calls ${block.name}]`);
    }
  }
  const text = parts.join(" ").replace(/\s+/g, " ").trim();
  if (!text) return "";
  return `${message.role}: ${text.length > LOG_TEXT_CHARS ? `${text.slice(0, LOG_TEXT_CHARS)}…` : text}`;
}

function infoText(r: SubagentRunRecord, now: number): string {
  const lines = [
    `${name(r)} (${r.runId})`,
    `session: ${r.childSessionKey} · agent ${r.agentId} · depth ${r.depth} · mode ${r.spawnMode} · cleanup ${r.cleanup}`,
    `requester: ${r.requesterSessionKey}`,
    `task: ${r.task.length > 300 ? `${r.task.slice(0, 300)}…` : r.task}`,
    `model: ${r.model ?? "(agent default)"}${r.thinking ? ` · thinking ${r.thinking}` : ""}${r.runTimeoutSeconds ? ` · run timeout ${r.runTimeoutSeconds}s` : ""}`,
    `started ${formatDuration(now - r.createdAt)} ago · runtime ${formatDuration(r.accumulatedRuntimeMs)} · runs ${r.runs.total} (${r.runs.ok} ok, ${r.runs.failed} failed) · round ${r.round}${r.roundOpen ? " (open)" : ""}`,
  ];
  if (r.endedAt) lines.push(`ended ${formatDuration(now - r.endedAt)} ago: ${r.outcome} (${r.endedReason})`);
  if (r.lastError) lines.push(`last error: ${r.lastError}`);
  if (r.announce) lines.push(`announcement: ${r.announce.state}${r.announce.attempts > 1 ? ` after ${r.announce.attempts} attempts` : ""} → ${r.announce.targetSessionKey}`);
  if (r.frozenResultText) lines.push(`result: ${r.frozenResultText.length > 300 ? `${r.frozenResultText.slice(0, 300)}…` : r.frozenResultText}`);
  return lines.join("\n");
}

function name(record: SubagentRunRecord): string {
  return `"${taskLabel(record)}"`;
}

function refuse(refusal: ToolRefusal): ControlResult {
  return { ok: false, ...refusal };
}
