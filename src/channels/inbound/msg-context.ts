import type { ChannelChatKind, ChannelEnvelope } from "../types.js";

/**
 * The one shape every inbound channel message takes inside the gateway:
 * whatever the platform, the pipeline after the adapter only reads this. Field names follow
 * OpenClaw's `MsgContext` so code and docs can be compared line by line.
 */
export interface MsgContext {
  /** The text as the user wrote it. */
  Body: string;
  /** What the agent sees: the body with the bot's own mention stripped. */
  BodyForAgent: string;
  /** What command parsing sees: trimmed, mention stripped, `/cmd@bot` reduced to `/cmd`. */
  BodyForCommands: string;
  RawBody: string;
  SessionKey: string;
  Provider: string;
  Surface: string;
  ChatType: ChannelChatKind;
  SenderId: string;
  SenderName?: string;
  SenderUsername?: string;
  OriginatingChannel: string;
  /** The chat a reply goes to. */
  OriginatingTo: string;
  AccountId: string;
  MessageThreadId?: string;
  /** The sender may run owner-only commands (`commands.ownerAllowFrom`). */
  CommandAuthorized: boolean;
  /** The platform message id. */
  MessageSid: string;
  /** Present for group/channel messages: the group or channel id. */
  GroupId?: string;
  GuildId?: string;
  TeamId?: string;
  MemberRoleIds: string[];
  WasMentioned: boolean;
  ReplyToId?: string;
  ReplyToBody?: string;
  ReplyToSender?: string;
  Timestamp: number;
}

export interface FinalizeParams {
  channel: string;
  accountId: string;
  envelope: ChannelEnvelope;
  sessionKey: string;
  wasMentioned: boolean;
  commandAuthorized: boolean;
  /** The bot's username, to reduce `/cmd@bot` and strip `@bot` mentions. */
  botUsername?: string;
  botId?: string;
}

/**
 * Last normalization before the message enters the pipeline proper: fill what adapters leave
 * out, strip the bot's own mention from what the agent and the command parser see, and keep
 * the raw text for the transcript.
 */
export function finalizeInboundContext(params: FinalizeParams): MsgContext {
  const { envelope: e } = params;
  const raw = e.text ?? "";
  const stripped = stripBotMention(raw, params.botUsername, params.botId);
  return {
    Body: raw,
    BodyForAgent: stripped.length > 0 ? stripped : raw.trim(),
    BodyForCommands: commandText(stripped, params.botUsername),
    RawBody: raw,
    SessionKey: params.sessionKey,
    Provider: params.channel,
    Surface: params.channel,
    ChatType: e.chatType,
    SenderId: String(e.senderId),
    SenderName: e.senderName,
    SenderUsername: e.senderUsername,
    OriginatingChannel: params.channel,
    OriginatingTo: String(e.chatId),
    AccountId: params.accountId,
    MessageThreadId: e.threadId === undefined || e.threadId === "" ? undefined : String(e.threadId),
    CommandAuthorized: params.commandAuthorized,
    MessageSid: String(e.messageId),
    GroupId: e.chatType === "direct" ? undefined : String(e.chatId),
    GuildId: e.guildId,
    TeamId: e.teamId,
    MemberRoleIds: e.memberRoleIds ?? [],
    WasMentioned: params.wasMentioned,
    ReplyToId: e.replyTo?.messageId,
    ReplyToBody: e.replyTo?.body,
    ReplyToSender: e.replyTo?.senderId,
    Timestamp: e.timestamp || Date.now(),
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Remove `@botname` (Telegram), `<@botId>` / `<@!botId>` (Discord, Slack) wherever they appear. */
export function stripBotMention(text: string, botUsername?: string, botId?: string): string {
  let out = text;
  if (botId) out = out.replace(new RegExp(`<@!?${escapeRegex(botId)}>`, "g"), " ");
  if (botUsername) out = out.replace(new RegExp(`(^|\\s)@${escapeRegex(botUsername)}\\b`, "gi"), "$1");
  return out.replace(/[ \t]{2,}/g, " ").trim();
}

/** `/status@MyBot args` → `/status args`: Telegram appends the bot name to commands in groups. */
function commandText(text: string, botUsername?: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("/")) return trimmed;
  const match = /^(\/[A-Za-z0-9_]+)@([A-Za-z0-9_]+)(.*)$/s.exec(trimmed);
  if (match && (!botUsername || match[2]!.toLowerCase() === botUsername.toLowerCase())) return `${match[1]}${match[3]}`;
  return trimmed;
}
