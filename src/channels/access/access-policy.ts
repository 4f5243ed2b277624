import type { InboundMessage } from "../types.js";
import { allowListMatches } from "./allow-list.js";

export type DmPolicy = "pairing" | "allowlist" | "open" | "disabled";
export type GroupPolicy = "allowlist" | "open" | "disabled";

/** A per-chat entry from `groups` (Telegram), `guilds.<id>.channels` (Discord) or `channels` (Slack). */
export interface ChatEntry {
  enabled?: boolean;
  requireMention?: boolean;
  allowFrom?: string[];
  users?: string[];
  agentId?: string;
}

export type AccessDecision = { decision: "allow"; entry?: ChatEntry; requireMention: boolean } | { decision: "pair" } | { decision: "drop"; reason: string };

export interface AccessInput {
  channel: string;
  /** The account's merged config (`dmPolicy`, `allowFrom`, `groupPolicy`, `groups`/`guilds`/`channels`, …). */
  account: Readonly<Record<string, unknown>>;
  message: InboundMessage;
  /** Senders approved through pairing (DMs only: group access never inherits them). */
  pairedSenders: readonly string[];
}

/**
 * Who may reach the agent (see docs/channels.md). DMs: `dmPolicy` with `allowFrom` ∪ approved
 * pairings; an unknown sender under `pairing` gets a code, under `allowlist` nothing. Groups:
 * `groupPolicy` and the platform's chat map first (no map + `allowlist` blocks every group),
 * then the sender filter; mention gating is the caller's next step (`requireMention`).
 */
export function decideAccess(input: AccessInput): AccessDecision {
  const { account, message, channel } = input;
  if (message.chatType === "direct") {
    const policy = (account.dmPolicy as DmPolicy | undefined) ?? "pairing";
    if (policy === "disabled") return { decision: "drop", reason: "DMs are disabled (dmPolicy: disabled)" };
    if (policy === "open") return { decision: "allow", requireMention: false };
    const allowFrom = [...((account.allowFrom as string[] | undefined) ?? []), ...input.pairedSenders];
    if (allowListMatches(channel, allowFrom, message.senderId, message.senderUsername)) return { decision: "allow", requireMention: false };
    return policy === "pairing" ? { decision: "pair" } : { decision: "drop", reason: "sender not in allowFrom (dmPolicy: allowlist)" };
  }

  const policy = (account.groupPolicy as GroupPolicy | undefined) ?? "allowlist";
  if (policy === "disabled") return { decision: "drop", reason: "groups are disabled (groupPolicy: disabled)" };
  const lookup = findChatEntry(channel, account, message);
  if (lookup.blocked) return { decision: "drop", reason: lookup.blocked };
  if (policy === "allowlist" && !lookup.listed) return { decision: "drop", reason: `${message.chatType} ${message.chatId} is not in the allowlist (groupPolicy: allowlist)` };
  const entry = lookup.entry;
  if (entry?.enabled === false) return { decision: "drop", reason: `${message.chatType} ${message.chatId} is disabled` };

  const senderFilter = [...((account.groupAllowFrom as string[] | undefined) ?? []), ...(entry?.allowFrom ?? []), ...(entry?.users ?? []), ...lookup.extraUsers];
  const roleFilter = lookup.roles;
  if (senderFilter.length > 0 || roleFilter.length > 0) {
    const userOk = allowListMatches(channel, senderFilter, message.senderId, message.senderUsername);
    const roleOk = roleFilter.some((r) => message.memberRoleIds?.includes(r));
    if (!userOk && !roleOk) return { decision: "drop", reason: `sender ${message.senderId} is not allowed in this ${message.chatType}` };
  }
  const requireMention = entry?.requireMention ?? lookup.parentRequireMention ?? (account.requireMention as boolean | undefined) ?? true;
  return { decision: "allow", entry, requireMention };
}

interface ChatLookup {
  listed: boolean;
  entry?: ChatEntry;
  /** Discord guild-level `users` / `roles`. */
  extraUsers: string[];
  roles: string[];
  parentRequireMention?: boolean;
  blocked?: string;
}

/** The platform's allowlist map for this chat: Telegram `groups` (+ `topics`), Discord `guilds.<id>.channels`, Slack `channels`. */
function findChatEntry(channel: string, account: Readonly<Record<string, unknown>>, message: InboundMessage): ChatLookup {
  const none: ChatLookup = { listed: false, extraUsers: [], roles: [] };
  if (channel === "discord") {
    const guilds = account.guilds as Record<string, { requireMention?: boolean; users?: string[]; roles?: string[]; channels?: Record<string, ChatEntry> }> | undefined;
    if (!guilds || !message.guildId) return none;
    const guild = guilds[message.guildId] ?? guilds["*"];
    if (!guild) return none;
    const base = { extraUsers: guild.users ?? [], roles: guild.roles ?? [], parentRequireMention: guild.requireMention };
    // A guild without `channels` allows every channel; with it, the map is an allowlist.
    if (!guild.channels) return { ...base, listed: true };
    const entry = pick(guild.channels, message.chatId, message.parentChatId);
    return entry ? { ...base, listed: true, entry } : { ...base, listed: false, blocked: `channel ${message.chatId} is not listed under guild ${message.guildId}` };
  }
  const map = (channel === "telegram" ? account.groups : account.channels) as Record<string, ChatEntry & { topics?: Record<string, ChatEntry> }> | undefined;
  if (!map) return none;
  const group = pick(map, message.chatId);
  if (!group) return none;
  if (channel === "telegram" && message.threadId && group.topics) {
    const topic = pick(group.topics, message.threadId);
    if (topic) return { listed: true, entry: { ...group, ...topic }, extraUsers: [], roles: [] };
  }
  return { listed: true, entry: group, extraUsers: [], roles: [] };
}

function pick<T>(map: Record<string, T>, id: string, parentId?: string): T | undefined {
  return map[id] ?? map[id.toLowerCase()] ?? (parentId !== undefined ? map[parentId] : undefined) ?? map["*"];
}

/**
 * Did the message address the bot? A native mention, a reply to the bot, or a configured
 * pattern (`mentionPatterns`, case-insensitive regexes; config validation refuses an invalid one).
 */
export function wasMentioned(message: InboundMessage, patterns: readonly string[] | undefined): boolean {
  if (message.mentionedBot || message.replyToBot) return true;
  for (const source of patterns ?? []) {
    try {
      if (new RegExp(source, "i").test(message.text)) return true;
    } catch {
      // Config validation refuses a broken pattern; should one get here, it must not take the channel down.
    }
  }
  return false;
}
