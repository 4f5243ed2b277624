import type { SubagentsArgs } from "../tools/index.js";
import { runSubagentsAction } from "./subagent-control.js";
import type { SubagentService } from "./subagent-service.js";

export interface SubagentsCommandDeps {
  service: SubagentService;
  now?: () => number;
}

export const SUBAGENTS_COMMAND_HELP = [
  "/subagents list — your sub-agents (active and the last 30 minutes)",
  "/subagents kill <#n|label|runId|all> — stop one (and everything it spawned), or all",
  "/subagents steer <#n|label|runId> <message> — redirect one",
  "/subagents log <#n|label|runId> [limit] — its recent messages",
  "/subagents info <#n|label|runId> — its details",
].join("\n");

/**
 * `/subagents …` typed in a chat (WebSocket `chat.send` / `agent`, or a channel): the same
 * actions as the `subagents` tool, for the session the command was typed in. `argsText` is
 * what follows `/subagents`. Always answers with text, never throws for bad input.
 */
export async function runSubagentsCommand(sessionKey: string, argsText: string, deps: SubagentsCommandDeps): Promise<string> {
  const parsed = parseSubagentsArgs(argsText);
  if (!parsed) return SUBAGENTS_COMMAND_HELP;
  if ("error" in parsed) return `⚠️ ${parsed.error}`;
  const result = await runSubagentsAction(deps.service, sessionKey, parsed, deps.now?.() ?? Date.now());
  return result.ok ? result.text : `⚠️ ${result.message} ${result.suggestion.replace(/^Call subagents with action "list"/, "Use /subagents list")}`;
}

/**
 * `/subagents` arguments as tool arguments; undefined for help or an unknown action; `error`
 * for an argument that cannot be read (a `log` limit that is not a positive whole number).
 */
export function parseSubagentsArgs(argsText: string): SubagentsArgs | { error: string } | undefined {
  const text = argsText.trim();
  const [action = "", ...rest] = text.split(/\s+/);
  const lowered = action.toLowerCase();
  if (lowered === "list" || lowered === "") return lowered === "list" ? { action: "list" } : undefined;
  if (lowered !== "kill" && lowered !== "steer" && lowered !== "log" && lowered !== "info") return undefined;
  const target = rest[0];
  if (lowered === "steer") {
    // The message is everything after the target, spacing and line breaks kept.
    const afterAction = text.slice(action.length).trimStart();
    const message = target ? afterAction.slice(target.length).trim() : "";
    return { action: "steer", ...(target ? { target } : {}), message };
  }
  if (lowered === "log") {
    const limitText = rest[1];
    if (limitText !== undefined && !/^[1-9]\d*$/.test(limitText)) {
      return { error: `The log limit "${limitText}" is not a positive whole number. Use /subagents log <#n|label|runId> [limit], e.g. /subagents log #1 50.` };
    }
    const limit = limitText === undefined ? undefined : Math.min(Number(limitText), 200);
    return { action: "log", ...(target ? { target } : {}), ...(limit !== undefined ? { limit } : {}) };
  }
  return { action: lowered, ...(target ? { target } : {}) };
}

/** `/subagents` at the start of a message: what follows it, else undefined. */
export function subagentsCommandArgs(message: string): string | undefined {
  const match = /^\s*\/subagents(?:\s+([\s\S]*))?$/i.exec(message);
  return match ? (match[1] ?? "") : undefined;
}
