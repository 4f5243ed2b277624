import { allowListMatches, allowsNameMatching } from "../access/allow-list.js";
import type { AccessGroups } from "../access/allow-list.js";
import type { InboundMessage, InboundReaction } from "../types.js";

/** Which reactions become notices for the agent: none, those on the bot's own messages, all, or those by listed people. */
export type ReactionNotificationMode = "off" | "own" | "all" | "allowlist";

const LABELS: Record<string, string> = { telegram: "Telegram", discord: "Discord", slack: "Slack" };

/**
 * The mode for a reaction, as each platform configures it (default `own` everywhere):
 * Telegram the account's `reactionNotifications` (`off | own | all`); Discord the guild entry's
 * `guilds.<id>.reactionNotifications` (then `"*"`), with `allowlist` meaning the guild's `users`
 * (a DM reaction takes `own`); Slack the account's `reactionNotifications`, with `allowlist`
 * meaning `reactionAllowlist`. Returns the mode and, for `allowlist`, the sender list.
 */
export function reactionNotificationMode(
  channel: string,
  account: Readonly<Record<string, unknown>>,
  reaction: InboundReaction,
): { mode: ReactionNotificationMode; senders?: readonly string[] } {
  if (channel === "discord") {
    if (!reaction.guildId) return { mode: "own" };
    const guilds = account.guilds as Record<string, { reactionNotifications?: ReactionNotificationMode; users?: string[] } | undefined> | undefined;
    const guild = guilds?.[reaction.guildId] ?? guilds?.["*"];
    const mode = guild?.reactionNotifications ?? "own";
    return mode === "allowlist" ? { mode, senders: guild?.users ?? [] } : { mode };
  }
  const mode = (account.reactionNotifications as ReactionNotificationMode | undefined) ?? "own";
  if (mode === "allowlist") return { mode, senders: (account.reactionAllowlist as string[] | undefined) ?? [] };
  return { mode };
}

/** Whether the mode lets this reaction through (the sender is already past the chat's access rules). */
export function reactionNotifies(
  channel: string,
  account: Readonly<Record<string, unknown>>,
  reaction: InboundReaction,
  setting: { mode: ReactionNotificationMode; senders?: readonly string[] },
  accessGroups: AccessGroups | undefined,
): boolean {
  switch (setting.mode) {
    case "off":
      return false;
    case "own":
      return reaction.onBotMessage === true;
    case "all":
      return true;
    case "allowlist":
      return allowListMatches(
        channel,
        [...(setting.senders ?? [])],
        { id: reaction.senderId, username: reaction.senderUsername },
        { allowNameMatching: allowsNameMatching(account), accessGroups },
      );
  }
}

/**
 * The notice, as OpenClaw words it: `Telegram reaction added: 👍 by Alice (@alice) on msg 42`;
 * Discord adds where (`on <guild> #<channel>`), Slack writes the shortcode (`:thumbsup:`).
 */
export function reactionNoticeText(channel: string, reaction: InboundReaction): string {
  const label = LABELS[channel] ?? channel;
  const emoji = channel === "slack" ? `:${reaction.emoji}:` : reaction.emoji;
  const place = channel === "discord" && reaction.guildId ? `on ${reaction.guildId} #${reaction.chatName ?? reaction.chatId} msg` : "on msg";
  return `${label} reaction added: ${emoji} by ${senderLabel(reaction)} ${place} ${reaction.messageId}`;
}

/** What one reaction is about: the same person's same emoji on the same message is one notice. */
export function reactionContextKey(channel: string, reaction: InboundReaction): string {
  return `${channel}:reaction:add:${reaction.chatId}:${reaction.messageId}:${reaction.senderId}:${reaction.emoji}`;
}

/** "Alice (@alice)", "Alice", "@alice", else "id:<sender id>". */
function senderLabel(reaction: InboundReaction): string {
  const name = reaction.senderName?.trim();
  const username = reaction.senderUsername ? `@${reaction.senderUsername}` : undefined;
  if (name && username) return `${name} (${username})`;
  return name || username || `id:${reaction.senderId}`;
}

/** The reaction as a message from its sender in its chat, for the access rules and the route (it has no text). */
export function reactionAsMessage(reaction: InboundReaction): InboundMessage {
  return {
    messageId: reaction.messageId,
    chatType: reaction.chatType,
    chatId: reaction.chatId,
    ...(reaction.threadId ? { threadId: reaction.threadId } : {}),
    ...(reaction.parentChatId ? { parentChatId: reaction.parentChatId } : {}),
    ...(reaction.guildId ? { guildId: reaction.guildId } : {}),
    ...(reaction.teamId ? { teamId: reaction.teamId } : {}),
    ...(reaction.memberRoleIds ? { memberRoleIds: reaction.memberRoleIds } : {}),
    senderId: reaction.senderId,
    ...(reaction.senderName ? { senderName: reaction.senderName } : {}),
    ...(reaction.senderUsername ? { senderUsername: reaction.senderUsername } : {}),
    text: "",
    timestamp: Date.now(),
  };
}
