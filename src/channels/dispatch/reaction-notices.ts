import { allowListMatches, allowsNameMatching } from "../access/allow-list.js";
import type { AccessGroups } from "../access/allow-list.js";
import type { InboundMessage, InboundReaction } from "../types.js";

/** Which reactions become notices for the agent: none, those on the bot's own messages, all, or those by listed people. */
export type ReactionNotificationMode = "off" | "own" | "all" | "allowlist";

const LABELS: Record<string, string> = { telegram: "Telegram", discord: "Discord", slack: "Slack" };

/**
 * Whether a reaction becomes a notice, by its platform's mode (default `own` everywhere): Telegram
 * the account's `reactionNotifications` (`off | own | all`); Discord the guild entry's
 * `guilds.<id>.reactionNotifications` (then `"*"`), with `allowlist` meaning the guild's `users`
 * (a DM reaction takes `own`); Slack the account's `reactionNotifications`, with `allowlist`
 * meaning `reactionAllowlist`. The sender still has to pass the chat's access rules.
 */
export function reactionNotifies(channel: string, account: Readonly<Record<string, unknown>>, reaction: InboundReaction, accessGroups: AccessGroups | undefined): boolean {
  let mode: ReactionNotificationMode = "own";
  let senders: readonly string[] = [];
  if (channel === "discord") {
    const guilds = account.guilds as Record<string, { reactionNotifications?: ReactionNotificationMode; users?: string[] } | undefined> | undefined;
    const guild = reaction.guildId ? (guilds?.[reaction.guildId] ?? guilds?.["*"]) : undefined;
    if (reaction.guildId) mode = guild?.reactionNotifications ?? "own";
    senders = guild?.users ?? [];
  } else {
    mode = (account.reactionNotifications as ReactionNotificationMode | undefined) ?? "own";
    senders = (account.reactionAllowlist as string[] | undefined) ?? [];
  }
  switch (mode) {
    case "off":
      return false;
    case "own":
      return reaction.onBotMessage === true;
    case "all":
      return true;
    case "allowlist":
      return allowListMatches(
        channel,
        [...senders],
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
