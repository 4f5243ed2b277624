import type { InboundMessage } from "../../src/channels/types.js";
import type { SlackDirectory } from "./directory.js";
import type { ResponseType } from "./response-url-replies.js";

/** `channels.slack.slashCommand`, read and defaulted. */
export interface SlashCommandSettings {
  enabled: boolean;
  /** Without the slash, as created in the Slack app (`openclaw` → `/openclaw`). */
  name: string;
  /** Answers only the person who ran it sees (Slack's `ephemeral`), else posted in the channel. */
  ephemeral: boolean;
}

/** The fields of a slash command payload this account reads (Slack sends them form-encoded or in a `slash_commands` envelope). */
export interface SlashCommandPayload {
  command: string;
  text: string;
  user_id: string;
  channel_id: string;
  team_id?: string;
  trigger_id: string;
  response_url: string;
}

/**
 * The inbound message for a command whose text is not empty, with the id (`slash:<trigger_id>`)
 * its answer is remembered by (see ResponseUrlReplies).
 */
export async function slashCommandInbound(payload: SlashCommandPayload, directory: SlackDirectory): Promise<InboundMessage> {
  const [chatType, sender] = await Promise.all([directory.chatKind(payload.channel_id), directory.profile(payload.user_id)]);
  const envelope: InboundMessage = {
    messageId: `slash:${payload.trigger_id}`,
    chatType,
    chatId: payload.channel_id,
    senderId: payload.user_id,
    text: payload.text.trim(),
    // A slash command is addressed to the bot: it needs no @mention in a channel.
    mentionedBot: true,
    nativeCommand: true,
    timestamp: Date.now(),
  };
  if (payload.team_id) envelope.teamId = payload.team_id;
  if (sender?.name) envelope.senderName = sender.name;
  if (sender?.username) envelope.senderUsername = sender.username;
  return envelope;
}

export function slashResponseType(settings: SlashCommandSettings): ResponseType {
  return settings.ephemeral ? "ephemeral" : "in_channel";
}

/** What an empty `/openclaw` answers. */
export function slashUsage(settings: SlashCommandSettings): { text: string; response_type: ResponseType } {
  return { text: `Usage: /${settings.name} <message> — or /${settings.name} /help for the commands`, response_type: slashResponseType(settings) };
}

export function readSlashCommandSettings(value: unknown): SlashCommandSettings {
  const block = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const name = typeof block.name === "string" && block.name.trim() ? block.name.trim().replace(/^\//, "") : "openclaw";
  return { enabled: block.enabled === true, name, ephemeral: block.ephemeral !== false };
}
