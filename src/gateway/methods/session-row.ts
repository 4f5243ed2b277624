import type { ConversationPort } from "../../agents/conversation-port.js";
import { agentModelRef, resolveAgentConfig } from "../../agents/agent-config.js";
import type { OpenClawConfig } from "../../config/index.js";
import { defaultModelRef, parseModelRef, resolveContextWindow } from "../../models/index.js";
import type { SessionEntry } from "../../sessions/store/index.js";
import { accountedGoal } from "../../sessions/goal/index.js";

/** The model a session's next turn uses: its `/model` choice, else its agent's, else the default. */
export function sessionModelRef(entry: Pick<SessionEntry, "agentId" | "modelOverride">, config: OpenClawConfig): string | undefined {
  if (entry.modelOverride) return entry.modelOverride;
  return agentModelRef(config, resolveAgentConfig(config, entry.agentId)) ?? defaultModelRef(config);
}

/** `provider/id` split the way OpenClaw's rows carry it (`modelProvider`, `model`). */
export function splitModelRef(ref: string | undefined, config: OpenClawConfig): { provider: string; id: string } | undefined {
  if (!ref) return undefined;
  const parsed = parseModelRef(ref, config);
  return parsed.ok ? { provider: parsed.parts.provider, id: parsed.parts.id } : undefined;
}

function sessionKind(key: string): "direct" | "group" | "global" | "unknown" {
  if (key === "global") return "global";
  const rest = key.split(":").slice(2);
  if (rest.includes("group") || rest.includes("channel")) return "group";
  if (rest.includes("direct") || rest[0] === "main" || rest.length === 1) return "direct";
  return "unknown";
}

/**
 * One session as `sessions.list`, `sessions.describe` and `sessions.changed` show it
 * (OpenClaw's GatewaySessionRow). Token fields follow OpenClaw: `totalTokens` is the context in use
 * after the latest turn and `contextTokens` the model's window; `inputTokens`, `outputTokens`,
 * `cacheRead`, `cacheWrite` and `estimatedCostUsd` are summed over the session's turns
 * (docs/sessions.md, "Token and cost accounting").
 */
export function sessionRow(entry: SessionEntry, conversations: ConversationPort, config: OpenClawConfig): Record<string, unknown> {
  const key = entry.sessionKey;
  const active = conversations.runs.activeFor(key).map((r) => r.runId);
  const answered = splitModelRef(entry.model, config);
  const next = splitModelRef(sessionModelRef(entry, config), config);
  const shown = entry.modelOverride ? next : (answered ?? next);
  const window = shown ? resolveContextWindow(config, shown.provider, shown.id).tokens : undefined;
  return {
    key,
    kind: sessionKind(key),
    agentId: entry.agentId,
    sessionId: entry.sessionId,
    updatedAt: entry.updatedAt ?? null,
    ...(entry.label ? { label: entry.label } : {}),
    ...(entry.displayName ? { displayName: entry.displayName } : {}),
    ...(entry.chatType ? { chatType: entry.chatType } : {}),
    ...(entry.channel ? { channel: entry.channel } : {}),
    ...(entry.subject ? { subject: entry.subject } : {}),
    ...(entry.origin ? { origin: entry.origin } : {}),
    ...(entry.lastChannel ? { lastChannel: entry.lastChannel, lastTo: entry.lastTo, lastAccountId: entry.lastAccountId } : {}),
    ...(entry.thinkingLevel ? { thinkingLevel: entry.thinkingLevel } : {}),
    ...(entry.verboseLevel ? { verboseLevel: entry.verboseLevel } : {}),
    ...(entry.reasoningLevel ? { reasoningLevel: entry.reasoningLevel } : {}),
    ...(entry.elevatedLevel ? { elevatedLevel: entry.elevatedLevel } : {}),
    ...(entry.sendPolicy ? { sendPolicy: entry.sendPolicy } : {}),
    ...(entry.responseUsage ? { responseUsage: entry.responseUsage } : {}),
    ...(entry.ttsAuto ? { ttsAuto: entry.ttsAuto } : {}),
    ...(entry.groupActivation ? { groupActivation: entry.groupActivation } : {}),
    ...(shown ? { modelProvider: shown.provider, model: shown.id } : {}),
    inputTokens: entry.inputTokens ?? 0,
    outputTokens: entry.outputTokens ?? 0,
    cacheRead: entry.cacheRead ?? 0,
    cacheWrite: entry.cacheWrite ?? 0,
    ...(entry.contextTokens !== undefined ? { totalTokens: entry.contextTokens, totalTokensFresh: true } : {}),
    ...(window !== undefined ? { contextTokens: window } : {}),
    ...(entry.estimatedCostUsd !== undefined ? { estimatedCostUsd: entry.estimatedCostUsd } : {}),
    ...(entry.compactionCount ? { compactionCount: entry.compactionCount } : {}),
    ...(entry.abortedLastRun ? { abortedLastRun: true } : {}),
    ...(entry.spawnedBy ? { spawnedBy: entry.spawnedBy } : {}),
    ...(entry.spawnDepth ? { spawnDepth: entry.spawnDepth } : {}),
    ...(entry.goal ? { goal: accountedGoal(entry.goal, entry.totalTokens ?? 0, Date.now()) } : {}),
    hasActiveRun: active.length > 0,
    activeRunIds: active,
  };
}
