import { agentModelRef, resolveAgentConfig } from "../../agents/agent-config.js";
import { configuredReasoningDefault } from "../../agents/reasoning-visibility.js";
import { turnElevatedLevel } from "../../agents/sandbox/elevated-level.js";
import { decideSandbox } from "../../agents/sandbox/sandbox-settings.js";
import { parseModelRef, resolveContextWindow } from "../../models/index.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";

/** 1234 → "1.2k", 1_500_000 → "1.5M": token counts as a person reads them. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Dollars with enough digits to show small turns ($0.0042) without noise on large ones ($12.30). */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** "3d 4h", "2h 5m", "45s": how long ago something started. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** The model the session's next turn uses and its context window. */
export function sessionModel(ctx: ChatCommandContext): { ref?: string; window?: number } {
  const config = ctx.config();
  const entry = ctx.sessions.get(ctx.sessionKey);
  const agentId = parseSessionKey(ctx.sessionKey).agentId;
  const ref = entry?.modelOverride ?? agentModelRef(config, resolveAgentConfig(config, agentId));
  if (!ref) return {};
  const parsed = parseModelRef(ref, config);
  if (!parsed.ok) return { ref };
  return { ref: `${parsed.parts.provider}/${parsed.parts.id}`, window: resolveContextWindow(config, parsed.parts.provider, parsed.parts.id).tokens };
}

/** `/status`: the session at a glance — model, tokens, context use, cost, queue mode, age. */
export function statusCard(ctx: ChatCommandContext): string {
  const entry = ctx.sessions.get(ctx.sessionKey);
  const now = Date.now();
  const { ref, window } = sessionModel(ctx);
  const chosen = entry?.modelOverrideSource === "user" && entry.modelOverride ? " (chosen with /model)" : "";
  const lines = [`🦞 Status · ${ctx.sessionKey}`, `Model: ${ref ?? "none configured"}${chosen}${entry?.model ? ` · last answer from ${entry.model}` : ""}`];
  if (!entry) {
    lines.push("Session: not started yet (no messages)");
  } else {
    const context = entry.contextTokens;
    const use = context !== undefined && window ? ` (${Math.min(999, Math.round((context / window) * 100))}%)` : "";
    lines.push(
      `Tokens: ${formatTokens(entry.inputTokens)} in / ${formatTokens(entry.outputTokens)} out · cache ${formatTokens(entry.cacheRead ?? 0)} read / ${formatTokens(entry.cacheWrite ?? 0)} write`,
    );
    lines.push(
      `Context: ${context !== undefined ? formatTokens(context) : "?"} / ${window ? formatTokens(window) : "?"}${use}${entry.compactionCount ? ` · compactions ${entry.compactionCount}` : ""}`,
    );
    lines.push(`Cost: ${entry.estimatedCostUsd !== undefined ? `${formatUsd(entry.estimatedCostUsd)} (estimated)` : "unknown (no cost configured for the model)"}`);
    lines.push(`Session: ${entry.messageCount} messages · started ${formatAge(now - entry.sessionStartedAt)} ago · last activity ${formatAge(now - entry.updatedAt)} ago`);
  }
  lines.push(
    `Thinking: ${entry?.thinkingLevel ?? ctx.config().agents.defaults.thinkingDefault ?? "off"} · verbose ${entry?.verboseLevel ?? ctx.config().agents.defaults.verboseDefault ?? "off"} · reasoning ${entry?.reasoningLevel ?? configuredReasoningDefault(ctx.config(), parseSessionKey(ctx.sessionKey).agentId)}`,
  );
  lines.push(`Queue: ${entry?.queueMode ?? "default"} · run ${ctx.conversations.isActive(ctx.sessionKey) ? "active" : "idle"}`);
  const sandbox = sandboxLine(ctx, entry?.elevatedLevel);
  if (sandbox) lines.push(sandbox);
  return lines.join("\n");
}

/** For a sandboxed session: where the asker's `exec` runs (their `/elevated` level when `tools.elevated` admits them). */
function sandboxLine(ctx: ChatCommandContext, sessionLevel: string | undefined): string | undefined {
  const config = ctx.config();
  if (!decideSandbox(config, parseSessionKey(ctx.sessionKey).agentId, ctx.sessionKey).sandboxed) return undefined;
  const level = turnElevatedLevel(ctx.elevated?.allowed ? {} : undefined, sessionLevel, config.agents.defaults.elevatedDefault);
  return `Sandbox: on · your exec runs ${level === "off" ? "in the sandbox" : `on the host (/elevated ${level})`}`;
}

/** `/usage cost`: the session's tokens and estimated cost. */
export function usageTotals(ctx: ChatCommandContext): string {
  const entry = ctx.sessions.get(ctx.sessionKey);
  if (!entry) return "Usage: nothing yet (this session has no messages).";
  return [
    `Usage · ${ctx.sessionKey}`,
    `Tokens: ${formatTokens(entry.inputTokens)} in / ${formatTokens(entry.outputTokens)} out · cache ${formatTokens(entry.cacheRead ?? 0)} read / ${formatTokens(entry.cacheWrite ?? 0)} write`,
    `Cost: ${entry.estimatedCostUsd !== undefined ? `${formatUsd(entry.estimatedCostUsd)} (estimated from the model's configured price)` : "unknown (no cost configured for the model)"}`,
  ].join("\n");
}

/** `/context`: the context in use against the model's window, and what the session holds. */
export function contextText(ctx: ChatCommandContext): string {
  const entry = ctx.sessions.get(ctx.sessionKey);
  const { ref, window } = sessionModel(ctx);
  const used = entry?.contextTokens;
  const pct = used !== undefined && window ? ` (${Math.min(999, Math.round((used / window) * 100))}%)` : "";
  return [
    `Context · ${ref ?? "no model configured"}`,
    `In use: ${used !== undefined ? formatTokens(used) : "unknown until the first reply"} of ${window ? formatTokens(window) : "?"} tokens${pct}`,
    `Transcript: ${entry?.messageCount ?? 0} messages · compactions ${entry?.compactionCount ?? 0}`,
    "Older turns are summarized when the context nears the window; /compact does it now.",
  ].join("\n");
}
