import { findAgentTools } from "../../agents/policy/index.js";
import { type ElevatedAccess, NO_CHAT_SENDER } from "../../agents/sandbox/elevated-level.js";
import type { OpenClawConfig } from "../../config/index.js";
import { allowListMatches, type AccessGroups } from "./allow-list.js";

/** Who sent a message, as `tools.elevated.allowFrom` names them. `username` and `name` only where the account matches names at all. */
export interface ElevatedSender {
  /** `telegram`, `discord`, `slack`, or `webchat` for an operator's `chat.send`. */
  channel: string;
  id: string;
  username?: string;
  name?: string;
}

/** An operator client's `chat.send`: its chat is `webchat`, and it carries no per-person id, so only `"*"` admits it. */
export const WEBCHAT_SENDER: ElevatedSender = { channel: "webchat", id: "" };

interface ElevatedRule {
  enabled?: boolean;
  allowFrom?: Readonly<Record<string, readonly string[]>>;
}

/**
 * OpenClaw's gates, all of which must pass: `tools.elevated.enabled` and the agent's (both on
 * unless set to false), a chat sender (`agent` and HTTP requests carry none), the sender on
 * `tools.elevated.allowFrom.<channel>` (empty by default: nobody), and on the agent's list for the
 * channel when it has one.
 */
export function elevatedAccess(config: OpenClawConfig, agentId: string, sender: ElevatedSender | undefined): ElevatedAccess {
  const global = config.tools?.elevated as ElevatedRule | undefined;
  const agent = findAgentTools(config, agentId);
  const own = agent?.tools.elevated as ElevatedRule | undefined;
  const failing: string[] = [];
  if (global?.enabled === false) failing.push("enabled (tools.elevated.enabled)");
  if (own?.enabled === false) failing.push(`enabled (${agent!.path}.elevated.enabled)`);
  if (failing.length > 0) return { allowed: false, failing };
  if (!sender) return NO_CHAT_SENDER;
  if (!senderListed(global?.allowFrom?.[sender.channel], sender, config.accessGroups)) failing.push(`allowFrom (tools.elevated.allowFrom.${sender.channel})`);
  else if (own?.allowFrom && !senderListed(own.allowFrom[sender.channel], sender, config.accessGroups))
    failing.push(`allowFrom (${agent!.path}.elevated.allowFrom.${sender.channel})`);
  return { allowed: failing.length === 0, failing };
}

/**
 * Entries as OpenClaw writes them: an id (with or without the channel's prefix), `id:` / `from:`
 * an id, `username:` / `tag:` a handle and `name:` a display name (matched only where the account
 * opted in to name matching), `accessGroup:<name>`, `"*"`. `e164:` names a phone number, which no
 * channel here has.
 */
function senderListed(list: readonly string[] | undefined, sender: ElevatedSender, accessGroups: AccessGroups | undefined): boolean {
  if (!list || list.length === 0) return false;
  const ids: string[] = [];
  for (const raw of list) {
    const typed = /^(id|from|e164|username|tag|name):(.*)$/i.exec(String(raw).trim());
    if (!typed) ids.push(String(raw));
    else if (typed[1]!.toLowerCase() === "id" || typed[1]!.toLowerCase() === "from") ids.push(typed[2]!);
    else if (typed[1]!.toLowerCase() !== "e164" && namesMatch(typed[1]!.toLowerCase() === "name" ? sender.name : sender.username, typed[2]!)) return true;
  }
  if (sender.id === "") return ids.some((entry) => entry.trim() === "*");
  return allowListMatches(sender.channel, ids, { id: sender.id }, { ...(accessGroups ? { accessGroups } : {}) });
}

function namesMatch(actual: string | undefined, written: string): boolean {
  if (!actual) return false;
  const plain = (value: string) => value.trim().toLowerCase().replace(/^[@#]/, "");
  return plain(actual) !== "" && plain(actual) === plain(written);
}
