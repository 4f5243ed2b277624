import { effectiveResponseUsage, parseResponseUsage, type ResponseUsageMode } from "../response-usage.js";
import type { ChatCommandContext } from "./chat-command-registry.js";
import type { SessionControlDeps } from "./session-control-commands.js";
import { usageTotals } from "./status-card.js";

const USAGE = "Usage: /usage off|tokens|full|reset|cost";
const NEXT: Record<ResponseUsageMode, ResponseUsageMode> = { off: "tokens", tokens: "full", full: "off" };

/**
 * `/usage` as OpenClaw's: the usage footer under this session's replies — `off`, `tokens`, `full`
 * (tokens and estimated cost), no argument for the next of the three, `reset` for
 * `messages.responseUsage` again — and `/usage cost` for the session's totals.
 */
export function usageCommand(args: string, ctx: ChatCommandContext, controls: SessionControlDeps): string {
  const word = args.trim().toLowerCase();
  if (word.startsWith("cost")) return usageTotals(ctx);
  const patch = (responseUsage: ResponseUsageMode | null) => controls.patch({ responseUsage });
  if (word === "reset" || word === "default" || word === "inherit") {
    patch(null);
    return "Usage footer: back to the default (messages.responseUsage).";
  }
  const requested = parseResponseUsage(word);
  if (word && !requested) return USAGE;
  const channel = ctx.chat?.channel ?? "webchat";
  const next = requested ?? NEXT[effectiveResponseUsage(controls.entry?.responseUsage, controls.config, channel)];
  patch(next);
  return `Usage footer: ${next}.`;
}
