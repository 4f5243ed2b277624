import type { InboundMessage } from "../types.js";
import { allowListMatches, allowsNameMatching, type AccessGroups } from "./allow-list.js";
import type { ImplicitMentions } from "./implicit-mentions.js";

export type DmPolicy = "pairing" | "allowlist" | "open" | "disabled";
export type GroupPolicy = "allowlist" | "open" | "disabled";

/** A per-chat entry from `groups` (Telegram), `guilds.<id>.channels` (Discord) or `channels` (Slack). */
export interface ChatEntry {
  enabled?: boolean;
  requireMention?: boolean;
  allowFrom?: string[];
  users?: string[];
  /** Discord channels only: role ids admitted there, replacing the guild's `roles`. */
  roles?: string[];
  /** Discord channels only: drop messages addressed to someone else (its guild's setting when unset). */
  ignoreOtherMentions?: boolean;
  /** Telegram groups and topics: the group policy here, in place of the account's. */
  groupPolicy?: GroupPolicy;
  /** Telegram groups and topics: no transcription of a captionless recording before the mention check. */
  disableAudioPreflight?: boolean;
  /** Messages from other bots reach the agent here (in place of the account's `allowBots`); `"mentions"`: only those that mention the bot. */
  allowBots?: AllowBots;
  /** Added to the system prompt of turns answering this chat. */
  systemPrompt?: string;
  /** Only these of the agent's skills are offered in this chat. */
  skills?: string[];
  agentId?: string;
}

/**
 * A drop is logged at debug, except where OpenClaw logs it at info (`level`): a Telegram group
 * outside the `groups` allowlist, which the owner may have meant to admit. Sender-level drops
 * stay at debug, as OpenClaw's verbose lines do.
 */
export type AccessDecision =
  | {
      decision: "allow";
      entry?: ChatEntry;
      requireMention: boolean;
      /** Whether another sender of this chat is on its sender list (the one that admitted this message), by id; false where no list is set. */
      allowlisted: (senderId: string) => boolean;
    }
  | { decision: "pair" }
  | { decision: "drop"; reason: string; level?: "info" };

/** Where each platform lists its group chats. */
const CHAT_MAP_KEY: Record<string, string> = { telegram: "groups", discord: "guilds", slack: "channels" };

export interface AccessInput {
  channel: string;
  /** The account's merged config (`dmPolicy`, `allowFrom`, `groupPolicy`, `groups`/`guilds`/`channels`, …). */
  account: Readonly<Record<string, unknown>>;
  message: InboundMessage;
  /** Senders approved through pairing (DMs only: group access never inherits them). */
  pairedSenders: readonly string[];
  /** `accessGroups`: what an `accessGroup:<name>` entry of a sender list stands for. */
  accessGroups?: AccessGroups;
}

/**
 * Who may reach the agent (see docs/channels.md). DMs: `dmPolicy` with `allowFrom` ∪ approved
 * pairings; an unknown sender under `pairing` gets a code, under `allowlist` nothing. Groups:
 * `groupPolicy` and the platform's chat map first (no map + `allowlist` blocks every group on
 * Discord and Slack; on Telegram, no `groups` map leaves every group to the sender list, so
 * `groupAllowFrom` admits its senders anywhere and nobody gets in without one), then the sender
 * filter; mention gating is the caller's next step (`requireMention`).
 *
 * The sender filter is the most specific list that is set, never a union: a Telegram topic's or
 * group's `allowFrom`, a Discord channel's `users` then its guild's, a Slack channel's `users`;
 * else the account's `groupAllowFrom` (on Telegram, when unset, its `allowFrom`), under
 * `groupPolicy: allowlist` only: `open` ignores it, as OpenClaw does. A Telegram group's or topic's `allowFrom: []` and a Discord
 * channel's `users: []` admit nobody; an empty guild or Slack channel `users` counts as unset.
 * A Telegram group let in under `allowlist` by `groups["*"]` alone (not listed by its id) admits
 * nobody until a sender list is set; a group listed by its id admits everyone without one.
 * Discord `roles` admit members beside the users: a channel's `roles` replace its guild's there
 * (a channel's `roles: []` admits no role); an empty guild `roles` counts as unset.
 */
export function decideAccess(input: AccessInput): AccessDecision {
  const { account, message, channel } = input;
  const sender = { id: message.senderId, username: message.senderUsername };
  const nameMatching = { allowNameMatching: allowsNameMatching(account), accessGroups: input.accessGroups };
  if (message.chatType === "direct") {
    const policy = (account.dmPolicy as DmPolicy | undefined) ?? "pairing";
    if (policy === "disabled") return { decision: "drop", reason: "DMs are disabled (dmPolicy: disabled)" };
    const allowFrom = [...((account.allowFrom as string[] | undefined) ?? []), ...input.pairedSenders];
    const allowlisted = (id: string) => allowListMatches(channel, allowFrom, { id }, { accessGroups: input.accessGroups });
    if (policy === "open") return { decision: "allow", requireMention: false, allowlisted };
    if (allowListMatches(channel, allowFrom, sender, nameMatching)) return { decision: "allow", requireMention: false, allowlisted };
    return policy === "pairing" ? { decision: "pair" } : { decision: "drop", reason: "sender not in allowFrom (dmPolicy: allowlist)" };
  }

  const lookup = findChatEntry(channel, account, message);
  // A Telegram group's (or topic's) own `groupPolicy` wins over the account's in it.
  const own = lookup.entry?.groupPolicy;
  const policy = own ?? (account.groupPolicy as GroupPolicy | undefined) ?? "allowlist";
  if (policy === "disabled")
    return { decision: "drop", reason: own ? `${message.chatType} ${message.chatId} is disabled by its own groupPolicy` : "groups are disabled (groupPolicy: disabled)" };
  if (lookup.blocked) return { decision: "drop", reason: lookup.blocked };
  if (policy === "allowlist" && !lookup.listed && !lookup.unmapped) {
    const reason = `${message.chatType} ${message.chatId} is not in the allowlist (groupPolicy: allowlist): list it under ${CHAT_MAP_KEY[channel] ?? "the chat map"} to admit it`;
    return { decision: "drop", reason, ...(channel === "telegram" ? { level: "info" as const } : {}) };
  }
  const entry = lookup.entry;
  if (entry?.enabled === false) return { decision: "drop", reason: `${message.chatType} ${message.chatId} is disabled` };

  // The account's `groupAllowFrom` filters senders only under `allowlist`; a chat's own list always does.
  const accountSenders = policy === "allowlist" ? accountGroupSenders(channel, account) : undefined;
  const senderFilter = lookup.users ?? accountSenders ?? [];
  if (policy === "allowlist" && lookup.wildcardOnly && senderFilter.length === 0) {
    return {
      decision: "drop",
      reason: `${message.chatType} ${message.chatId} is allowed only by groups["*"], which admits nobody without a sender list (groupPolicy: allowlist): set groupAllowFrom or the group's allowFrom, or list the group by its id`,
    };
  }
  if (policy === "allowlist" && lookup.unmapped && senderFilter.length === 0) {
    return {
      decision: "drop",
      reason: `${message.chatType} ${message.chatId}: no groups map and no sender list (groupPolicy: allowlist): set groupAllowFrom to admit its senders in any group, or list the group under groups`,
    };
  }
  const roleFilter = lookup.roles;
  if (lookup.users !== undefined || senderFilter.length > 0 || roleFilter !== undefined) {
    const userOk = allowListMatches(channel, senderFilter, sender, nameMatching);
    const roleOk = (roleFilter ?? []).some((r) => message.memberRoleIds?.includes(r));
    if (!userOk && !roleOk) return { decision: "drop", reason: `sender ${message.senderId} is not allowed in this ${message.chatType}` };
  }
  if (lookup.ignoreOtherMentions && message.addressedToOther && !message.mentionedBot) {
    return { decision: "drop", reason: "addressed to another user, role or bot, not to this one (ignoreOtherMentions)" };
  }
  const requireMention = entry?.requireMention ?? lookup.parentRequireMention ?? (account.requireMention as boolean | undefined) ?? true;
  // Under `open` with no chat list, no list names anyone: nobody else counts as allowlisted.
  const contextSenders = lookup.users ?? accountSenders ?? (policy === "open" ? accountGroupSenders(channel, account) : undefined) ?? [];
  return { decision: "allow", entry, requireMention, allowlisted: (id) => allowListMatches(channel, contextSenders, { id }, { accessGroups: input.accessGroups }) };
}

/** The account's group sender list: `groupAllowFrom`; on Telegram, when unset, the DM `allowFrom` from config (never pairings). */
function accountGroupSenders(channel: string, account: Readonly<Record<string, unknown>>): string[] | undefined {
  const groupAllowFrom = account.groupAllowFrom as string[] | undefined;
  return groupAllowFrom ?? (channel === "telegram" ? (account.allowFrom as string[] | undefined) : undefined);
}

interface ChatLookup {
  listed: boolean;
  entry?: ChatEntry;
  /** The chat's own sender list (it replaces `groupAllowFrom`); undefined when the chat sets none. */
  users?: string[];
  /** Discord roles admitted beside the users: the channel's `roles`, else the guild's; undefined when neither restricts. */
  roles?: string[];
  parentRequireMention?: boolean;
  blocked?: string;
  /** A Telegram group matched by the `"*"` entry alone, not by its own id. */
  wildcardOnly?: boolean;
  /** Telegram without a `groups` map (or with an empty one): no chat allowlist, the sender list decides. */
  unmapped?: boolean;
  /** Discord: messages addressed to another user, role or bot and not this one are dropped. */
  ignoreOtherMentions?: boolean;
}

/** The platform's allowlist map for this chat: Telegram `groups` (+ `topics`), Discord `guilds.<id>.channels`, Slack `channels`. */
function findChatEntry(channel: string, account: Readonly<Record<string, unknown>>, message: InboundMessage): ChatLookup {
  const none: ChatLookup = { listed: false };
  if (channel === "discord") {
    const guilds = account.guilds as
      | Record<string, { requireMention?: boolean; users?: string[]; roles?: string[]; ignoreOtherMentions?: boolean; channels?: Record<string, ChatEntry> }>
      | undefined;
    if (!guilds || !message.guildId) return none;
    const guild = guilds[message.guildId] ?? guilds["*"];
    if (!guild) return none;
    const guildRoles = guild.roles?.length ? guild.roles : undefined;
    const base = { roles: guildRoles, parentRequireMention: guild.requireMention, ignoreOtherMentions: guild.ignoreOtherMentions };
    // A guild without `channels` allows every channel; with it, the map is an allowlist.
    const guildUsers = guild.users?.length ? guild.users : undefined;
    if (!guild.channels) return { ...base, listed: true, users: guildUsers };
    const entry = pick(guild.channels, message.chatId, message.parentChatId);
    if (!entry) return { ...base, listed: false, blocked: `channel ${message.chatId} is not listed under guild ${message.guildId}` };
    return {
      ...base,
      listed: true,
      entry,
      users: ownSenderList(entry) ?? guildUsers,
      roles: entry.roles ?? guildRoles,
      ignoreOtherMentions: entry.ignoreOtherMentions ?? guild.ignoreOtherMentions,
    };
  }
  const map = (channel === "telegram" ? account.groups : account.channels) as Record<string, ChatEntry & { topics?: Record<string, ChatEntry> }> | undefined;
  // Telegram's `groups` is a chat allowlist only once it has an entry; until then every group is open to the sender list.
  if (channel === "telegram" && Object.keys(map ?? {}).length === 0) return { listed: false, unmapped: true };
  if (!map) return none;
  const group = pick(map, message.chatId);
  if (!group) return none;
  const topic = channel === "telegram" && message.threadId && group.topics ? pick(group.topics, message.threadId) : undefined;
  // A topic inherits its group's keys and overrides the ones it sets (its `allowFrom` too).
  const entry = topic ? { ...group, ...topic } : group;
  const users = ownSenderList(entry);
  const wildcardOnly = channel === "telegram" && !Object.hasOwn(map, message.chatId);
  return { listed: true, entry, users: channel === "slack" && users?.length === 0 ? undefined : users, wildcardOnly };
}

/** A chat entry's own sender list: `allowFrom` (Telegram's key) or `users` (Discord's and Slack's). */
function ownSenderList(entry: ChatEntry): string[] | undefined {
  return entry.allowFrom ?? entry.users;
}

function pick<T>(map: Record<string, T>, id: string, parentId?: string): T | undefined {
  return map[id] ?? map[id.toLowerCase()] ?? (parentId !== undefined ? map[parentId] : undefined) ?? map["*"];
}

/**
 * Did the message address the bot? A native mention, a configured pattern (`mentionPatterns`,
 * case-insensitive regexes; config validation refuses an invalid one), or an implied one that
 * `implicit` lets count: a reply to the bot, a message in a thread the bot posted in.
 */
export function wasMentioned(message: InboundMessage, patterns: MentionPatterns | undefined, implicit: ImplicitMentions): boolean {
  if (message.mentionedBot) return true;
  if (message.replyToBot && implicit.replyToBot) return true;
  if (message.botInThread && implicit.threadParticipation) return true;
  for (const source of patterns?.patterns ?? []) {
    try {
      if (new RegExp(source, patterns!.flags).test(message.text)) return true;
    } catch {
      // Config validation refuses a broken pattern; should one get here, it must not take the channel down.
    }
  }
  return false;
}

/** `allowBots`: other bots' messages are dropped (false), heard (true), or heard only when they mention the bot. */
export type AllowBots = boolean | "mentions";

/** Whether this `allowBots` lets another bot's message go on (a `"mentions"` one still needs its mention). */
export function admitsBots(rule: AllowBots | undefined): boolean {
  return rule === true || rule === "mentions";
}

/** Regexes that count as a mention of the bot, with the flags they are compiled with. */
export interface MentionPatterns {
  patterns: readonly string[];
  flags: string;
}

const WORD_CHAR = "[\\p{L}\\p{N}_]";

/** `channels.<channel>.mentionPatterns` as a policy: where regex mention patterns apply. */
export interface MentionPatternScope {
  mode?: "allow" | "deny";
  allowIn?: readonly string[];
  denyIn?: readonly string[];
}

/**
 * Whether regex mention patterns apply in a conversation known by `ids` (its own id first, then
 * the ids it belongs to: a topic's group, a thread's channel). `allow` (the default): unless an id
 * is in `denyIn`; `deny`: only where an id is in `allowIn`. `denyIn` wins over `allowIn`.
 */
export function patternsApplyIn(scope: MentionPatternScope, ids: readonly string[]): boolean {
  if (ids.some((id) => scope.denyIn?.includes(id))) return false;
  if (scope.mode === "deny") return ids.some((id) => scope.allowIn?.includes(id));
  return true;
}

/**
 * The mention patterns of a group message routed to `agentId`, as OpenClaw resolves them: the
 * channel account's `mentionPatterns` list, else the agent's `groupChat.mentionPatterns`, else
 * `messages.groupChat.mentionPatterns`, else ones made from the agent's identity — its name as a
 * whole word (`@` before it allowed) and its emoji. An account's `mentionPatterns` policy
 * (`{ mode, allowIn, denyIn }`) instead says in which conversations (`conversationIds`) those
 * apply; where they do not, only a native mention counts.
 */
export function mentionPatternsFor(
  accountSetting: readonly string[] | MentionPatternScope | undefined,
  agent: { groupChat?: { mentionPatterns?: string[] }; identity?: { name?: string; emoji?: string } } | undefined,
  globalPatterns: readonly string[] | undefined,
  conversationIds: readonly string[] = [],
): MentionPatterns {
  const accountPatterns = Array.isArray(accountSetting) ? (accountSetting as readonly string[]) : undefined;
  const scope = accountSetting && !Array.isArray(accountSetting) ? (accountSetting as MentionPatternScope) : undefined;
  if (scope && !patternsApplyIn(scope, conversationIds)) return { patterns: [], flags: "i" };
  const configured = accountPatterns ?? agent?.groupChat?.mentionPatterns ?? globalPatterns;
  if (configured) return { patterns: configured, flags: "i" };
  const derived: string[] = [];
  const name = agent?.identity?.name?.trim();
  if (name) derived.push(`(?:@|(?<!${WORD_CHAR}))${escapeRegExp(name).replace(/\s+/g, "\\s+")}(?!${WORD_CHAR})`);
  const emoji = agent?.identity?.emoji?.trim();
  if (emoji) derived.push(escapeRegExp(emoji));
  return { patterns: derived, flags: "iu" };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
