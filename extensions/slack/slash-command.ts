import type { InboundMessage } from "../../src/channels/types.js";
import type { SlackDirectory } from "./directory.js";

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

/** Slack accepts answers on a command's `response_url` for 30 minutes (at most five). */
const RESPONSE_URL_MS = 30 * 60_000;
const MAX_RESPONSES = 5;

type Respond = (message: { text: string; response_type: "ephemeral" | "in_channel"; replace_original?: boolean }) => Promise<unknown>;

interface PendingCommand {
  respond: Respond;
  receivedAt: number;
  answered: number;
}

const SLASH_MESSAGE_PREFIX = "slash:";

/** Whether `messageId` names a slash command (no Slack message: nothing can be answered in its thread). */
export function isSlashCommandId(messageId: string | undefined): boolean {
  return messageId?.startsWith(SLASH_MESSAGE_PREFIX) === true;
}

/**
 * The slash commands waiting for their answers, keyed by the inbound message id they were given
 * (`slash:<trigger_id>`): the reply to that message goes to the command's `response_url`.
 */
export class SlashCommandReplies {
  readonly #pending = new Map<string, PendingCommand>();

  constructor(private readonly settings: SlashCommandSettings) {}

  /** The inbound message for a command whose text is not empty, remembering how to answer it. */
  async accept(payload: SlashCommandPayload, respond: Respond, directory: SlackDirectory): Promise<InboundMessage> {
    const now = Date.now();
    for (const [id, pending] of this.#pending) if (now - pending.receivedAt >= RESPONSE_URL_MS) this.#pending.delete(id);
    const messageId = `${SLASH_MESSAGE_PREFIX}${payload.trigger_id}`;
    this.#pending.set(messageId, { respond, receivedAt: now, answered: 0 });
    const [chatType, sender] = await Promise.all([directory.chatKind(payload.channel_id), directory.profile(payload.user_id)]);
    const envelope: InboundMessage = {
      messageId,
      chatType,
      chatId: payload.channel_id,
      senderId: payload.user_id,
      text: payload.text.trim(),
      // A slash command is addressed to the bot: it needs no @mention in a channel.
      mentionedBot: true,
      nativeCommand: true,
      timestamp: now,
    };
    if (payload.team_id) envelope.teamId = payload.team_id;
    if (sender?.name) envelope.senderName = sender.name;
    if (sender?.username) envelope.senderUsername = sender.username;
    return envelope;
  }

  /** Answers the command `messageId` names, if it still can be; false sends the text the ordinary way. */
  async answer(messageId: string | undefined, mrkdwn: string): Promise<string | false> {
    const pending = messageId === undefined ? undefined : this.#pending.get(messageId);
    if (!pending || Date.now() - pending.receivedAt >= RESPONSE_URL_MS || pending.answered >= MAX_RESPONSES) return false;
    pending.answered++;
    await pending.respond({ text: mrkdwn, response_type: this.responseType, replace_original: false });
    return `${messageId}:${pending.answered}`;
  }

  /** What an empty `/openclaw` answers. */
  usage(): { text: string; response_type: "ephemeral" | "in_channel" } {
    return { text: `Usage: /${this.settings.name} <message> — or /${this.settings.name} /help for the commands`, response_type: this.responseType };
  }

  get responseType(): "ephemeral" | "in_channel" {
    return this.settings.ephemeral ? "ephemeral" : "in_channel";
  }
}

export function readSlashCommandSettings(value: unknown): SlashCommandSettings {
  const block = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const name = typeof block.name === "string" && block.name.trim() ? block.name.trim().replace(/^\//, "") : "openclaw";
  return { enabled: block.enabled === true, name, ephemeral: block.ephemeral !== false };
}
