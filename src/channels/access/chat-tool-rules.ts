import { findAgentTools, type LocatedToolRule } from "../../agents/policy/index.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { InboundMessage } from "../types.js";
import { normalizeAllowEntry } from "./allow-list.js";

interface ToolRule {
  allow?: readonly string[];
  alsoAllow?: readonly string[];
  deny?: readonly string[];
}

/** A place that may hold tool rules: a group, topic, guild, channel, or the `"*"` entry of its map. */
interface RuleNode {
  tools?: ToolRule;
  toolsBySender?: Readonly<Record<string, ToolRule>>;
}

type MaybeNode = (RuleNode & Record<string, unknown>) | undefined;

/**
 * Who sent a chat message, as `toolsBySender` keys name them. `username` and `name` are given only
 * where the account opted in to name matching (`dangerouslyAllowNameMatching`): names change hands,
 * and a rule matched by one could give a stranger a tool the chat's own rule denies.
 */
export interface ToolSender {
  channel: string;
  id: string;
  username?: string;
  name?: string;
}

/**
 * The `toolsBySender` entry for the sender, tried in OpenClaw's order: `channel:<channel>:<id>`,
 * `id:<id>` (an unprefixed key is an id too), `username:<handle>`, `name:<display name>`, then `*`.
 * Ids compare as the channel's allowlist entries do; names and handles case-insensitively.
 */
export function senderRuleKey(bySender: Readonly<Record<string, ToolRule>> | undefined, sender: ToolSender): string | undefined {
  if (!bySender) return undefined;
  const id = sender.id.trim().toLowerCase();
  const username = sender.username?.trim().toLowerCase().replace(/^@/, "");
  const name = sender.name?.trim().toLowerCase();
  const keys = Object.keys(bySender);
  const find = (test: (type: string, value: string) => boolean) =>
    keys.find((key) => {
      const typed = /^(channel|id|username|name|e164):(.*)$/i.exec(key.trim());
      return typed ? test(typed[1]!.toLowerCase(), typed[2]!.trim()) : key.trim() !== "*" && test("id", key.trim());
    });
  return (
    find((type, value) => {
      if (type !== "channel") return false;
      const colon = value.indexOf(":");
      return colon > 0 && value.slice(0, colon).toLowerCase() === sender.channel && normalizeAllowEntry(sender.channel, value.slice(colon + 1)) === id;
    }) ??
    find((type, value) => type === "id" && normalizeAllowEntry(sender.channel, value) === id) ??
    (username ? find((type, value) => type === "username" && value.toLowerCase().replace(/^@/, "") === username) : undefined) ??
    (name ? find((type, value) => type === "name" && value.toLowerCase() === name) : undefined) ??
    keys.find((key) => key.trim() === "*")
  );
}

/** A rule with the key it was found at, its lists copied (nothing else of the entry travels with the turn). */
function located(source: string, rule: ToolRule): LocatedToolRule {
  return {
    source,
    ...(rule.allow ? { allow: [...rule.allow] } : {}),
    ...(rule.alsoAllow ? { alsoAllow: [...rule.alsoAllow] } : {}),
    ...(rule.deny ? { deny: [...rule.deny] } : {}),
  };
}

/** The node's rule for the sender: its `toolsBySender` match, else its `tools`. */
function nodeRule(path: string, node: MaybeNode, sender: ToolSender): LocatedToolRule | undefined {
  if (!node) return undefined;
  const key = senderRuleKey(node.toolsBySender, sender);
  if (key !== undefined) return located(`${path}.toolsBySender[${JSON.stringify(key)}]`, node.toolsBySender![key]!);
  return node.tools ? located(`${path}.tools`, node.tools) : undefined;
}

/**
 * The tool rule of the chat a message came from, as OpenClaw resolves it. For a group: from the
 * most specific place to the least (a Telegram topic, then its group; a Discord channel or thread's
 * parent, then its guild; a Slack channel), then the maps' `"*"` entries, the first place with a
 * `toolsBySender` match or a `tools` rule wins. For a Telegram DM: `direct.<chatId>`, else
 * `direct["*"]`; an exact entry replaces the wildcard whole, also where it sets nothing.
 * `account` is the account's merged config.
 */
export function chatToolRule(channel: string, account: Readonly<Record<string, unknown>>, message: InboundMessage, sender: ToolSender): LocatedToolRule | undefined {
  if (message.chatType === "direct") return directToolRule(channel, account, message, sender);
  const places: { path: string; node: MaybeNode }[] = [];
  const base = `channels.${channel}`;
  if (channel === "telegram") {
    const groups = account.groups as Record<string, MaybeNode> | undefined;
    const group = groups?.[message.chatId];
    const topics = group?.topics as Record<string, MaybeNode> | undefined;
    if (message.threadId) places.push({ path: `${base}.groups.${message.chatId}.topics.${message.threadId}`, node: topics?.[message.threadId] });
    places.push({ path: `${base}.groups.${message.chatId}`, node: group }, { path: `${base}.groups["*"]`, node: groups?.["*"] });
  } else if (channel === "discord") {
    const guilds = account.guilds as Record<string, MaybeNode> | undefined;
    const guildKey = message.guildId && guilds?.[message.guildId] ? message.guildId : "*";
    const guild = guilds?.[guildKey];
    const channels = guild?.channels as Record<string, MaybeNode> | undefined;
    const guildPath = `${base}.guilds${guildKey === "*" ? '["*"]' : `.${guildKey}`}`;
    const own = channels?.[message.chatId] ? message.chatId : message.parentChatId;
    if (own) places.push({ path: `${guildPath}.channels.${own}`, node: channels?.[own] });
    places.push({ path: guildPath, node: guild }, { path: `${guildPath}.channels["*"]`, node: channels?.["*"] });
  } else if (channel === "slack") {
    const channels = account.channels as Record<string, MaybeNode> | undefined;
    places.push({ path: `${base}.channels.${message.chatId}`, node: channels?.[message.chatId] }, { path: `${base}.channels["*"]`, node: channels?.["*"] });
  }
  for (const place of places) {
    const rule = nodeRule(place.path, place.node, sender);
    if (rule) return rule;
  }
  return undefined;
}

function directToolRule(channel: string, account: Readonly<Record<string, unknown>>, message: InboundMessage, sender: ToolSender): LocatedToolRule | undefined {
  if (channel !== "telegram") return undefined;
  const direct = account.direct as Record<string, MaybeNode> | undefined;
  const key = direct && Object.hasOwn(direct, message.chatId) ? message.chatId : "*";
  const node = direct?.[key];
  if (!node) return undefined;
  const path = `channels.telegram.direct${key === "*" ? '["*"]' : `.${key}`}`;
  // An exact entry without rules still stands in for the wildcard: it allows what the other layers allow.
  return nodeRule(path, node, sender) ?? { source: path };
}

/** `tools.toolsBySender`'s rule for a channel sender; the agent's own `tools.toolsBySender` wins when one of its keys matches. */
export function senderToolRule(config: OpenClawConfig, agentId: string, sender: ToolSender): LocatedToolRule | undefined {
  const agent = findAgentTools(config, agentId);
  const agentRules = agent?.tools.toolsBySender as Readonly<Record<string, ToolRule>> | undefined;
  const agentKey = senderRuleKey(agentRules, sender);
  if (agentKey !== undefined) return located(`${agent!.path}.toolsBySender[${JSON.stringify(agentKey)}]`, agentRules![agentKey]!);
  const globalRules = config.tools?.toolsBySender;
  const key = senderRuleKey(globalRules, sender);
  return key === undefined ? undefined : located(`tools.toolsBySender[${JSON.stringify(key)}]`, globalRules![key]!);
}
