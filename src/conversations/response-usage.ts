import type { OpenClawConfig } from "../config/index.js";
import type { ReplyPayload } from "../agents/types.js";
import type { Usage } from "../models/messages.js";
import { formatTokens, formatUsd } from "./commands/status-card.js";

/** What a reply's usage footer shows: nothing, its tokens, or its tokens and estimated cost. */
export type ResponseUsageMode = "off" | "tokens" | "full";

const WORDS: Record<string, ResponseUsageMode> = {
  off: "off",
  false: "off",
  no: "off",
  "0": "off",
  disable: "off",
  disabled: "off",
  on: "tokens",
  true: "tokens",
  yes: "tokens",
  "1": "tokens",
  enable: "tokens",
  enabled: "tokens",
  tokens: "tokens",
  token: "tokens",
  tok: "tokens",
  minimal: "tokens",
  min: "tokens",
  full: "full",
  session: "full",
};

/** The mode a word names, with OpenClaw's aliases (`on` is `tokens`); undefined for anything else. */
export function parseResponseUsage(raw: string | undefined): ResponseUsageMode | undefined {
  return raw === undefined ? undefined : WORDS[raw.trim().toLowerCase()];
}

/**
 * The footer mode of a reply in `channel`: the session's own (`/usage`, `sessions.patch
 * responseUsage`), else `messages.responseUsage` (one mode, or one per channel with `default`
 * for the rest), else off.
 */
export function effectiveResponseUsage(sessionValue: string | undefined, config: OpenClawConfig, channel: string): ResponseUsageMode {
  const own = parseResponseUsage(sessionValue);
  if (own) return own;
  const configured = config.messages?.responseUsage;
  const value = typeof configured === "string" ? configured : (configured?.[channel] ?? configured?.default);
  return parseResponseUsage(value) ?? "off";
}

/**
 * `Usage: 1.2k in / 80 out · cache 900 cached / 0 new · est $0.0042`: the line OpenClaw appends to
 * a reply. The cost part (`full`) needs the model's configured price; without one it is left out.
 * Undefined when the run reported no tokens.
 */
export function usageFooter(mode: ResponseUsageMode, usage: Usage, costUsd: number | undefined): string | undefined {
  if (mode === "off" || usage.input + usage.output + usage.cacheRead + usage.cacheWrite === 0) return undefined;
  const cache = usage.cacheRead > 0 || usage.cacheWrite > 0 ? ` · cache ${formatTokens(usage.cacheRead)} cached / ${formatTokens(usage.cacheWrite)} new` : "";
  const cost = mode === "full" && costUsd !== undefined ? ` · est ${formatUsd(costUsd)}` : "";
  return `Usage: ${formatTokens(usage.input)} in / ${formatTokens(usage.output)} out${cache}${cost}`;
}

/** The payloads with `footer` on a line of its own after the last text; a run with no text gets none. */
export function withFooter(payloads: readonly ReplyPayload[], footer: string): ReplyPayload[] {
  let last = -1;
  for (let i = payloads.length - 1; i >= 0; i--) {
    if (payloads[i]!.text.trim()) {
      last = i;
      break;
    }
  }
  if (last < 0) return [...payloads];
  return payloads.map((p, i) => (i === last ? { ...p, text: `${p.text}${p.text.endsWith("\n") ? "" : "\n"}${footer}` } : p));
}

/**
 * The footer of a finished turn's reply, for replies to chat messages only (a channel's, and
 * `chat.send`'s, whose chat is `webchat`), as OpenClaw's reply runner adds it: `agent`, the HTTP
 * API, heartbeats and cron runs report usage in their own fields. Only a turn that ended well
 * gets one.
 */
export function replyUsageFooter(
  turn: { method: string | undefined; channel: string | undefined; sessionValue: string | undefined; ok: boolean },
  config: OpenClawConfig,
  usage: Usage,
  costUsd: number | undefined,
): string | undefined {
  if (!turn.ok) return undefined;
  const channel = turn.method === "channel" ? turn.channel : turn.method === "chat.send" ? "webchat" : undefined;
  if (!channel) return undefined;
  return usageFooter(effectiveResponseUsage(turn.sessionValue, config, channel), usage, costUsd);
}
