import type { ButtonInteraction, ChatInputCommandInteraction } from "discord.js";
import type { InboundMessage } from "../../src/channels/types.js";

/**
 * An interaction (a slash command, a button press) as the inbound message the pipeline runs,
 * with `text` as its line. A command is addressed to the bot, so it counts as a mention, and
 * Discord waits for an answer to it, so it is a native command (its reply answers the
 * interaction). Any other press is a message on the bot's own message (an implicit mention),
 * answered in the chat like one.
 */
export function interactionEnvelope(interaction: ChatInputCommandInteraction | ButtonInteraction, text: string, kind: "command" | "press" = "command"): InboundMessage {
  const channel = interaction.channel;
  const envelope: InboundMessage = {
    messageId: interaction.id,
    chatType: interaction.inGuild() ? "channel" : "direct",
    chatId: interaction.channelId,
    senderId: interaction.user.id,
    senderName: interaction.inCachedGuild() ? interaction.member.displayName : interaction.user.displayName,
    senderUsername: interaction.user.tag,
    senderIsBot: interaction.user.bot,
    text,
    ...(kind === "command" ? { mentionedBot: true, nativeCommand: true } : { replyToBot: true }),
    timestamp: interaction.createdTimestamp,
  };
  if (channel?.isThread()) {
    envelope.threadId = channel.id;
    if (channel.parentId) envelope.parentChatId = channel.parentId;
  }
  if (interaction.guildId) {
    envelope.guildId = interaction.guildId;
    const roles = interaction.member?.roles;
    const roleIds = Array.isArray(roles) ? roles : roles ? [...roles.cache.keys()] : [];
    envelope.memberRoleIds = roleIds.filter((id) => id !== interaction.guildId);
  }
  return envelope;
}
