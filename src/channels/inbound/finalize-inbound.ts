import type { InboundMessage } from "../types.js";

/**
 * An inbound message once the pipeline has routed it: the adapter's `InboundMessage`, enriched
 * in place of a second type. Nothing here crosses the wire or reaches a template, so the
 * fields keep the gateway's own camelCase names.
 */
export interface FinalizedInbound extends InboundMessage {
  channel: string;
  accountId: string;
  sessionKey: string;
  /** What the agent sees: the text with the bot's own mention stripped. */
  bodyForAgent: string;
  /** What command parsing sees: trimmed, mention stripped, `/cmd@bot` reduced to `/cmd`. */
  bodyForCommands: string;
  wasMentioned: boolean;
  /** The sender may run owner-only commands (`commands.ownerAllowFrom`). */
  commandAuthorized: boolean;
}

export interface FinalizeParams {
  channel: string;
  accountId: string;
  message: InboundMessage;
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
 * `text` as the user wrote it for the transcript.
 */
export function finalizeInbound(params: FinalizeParams): FinalizedInbound {
  const { message } = params;
  const text = message.text ?? "";
  const stripped = stripBotMention(text, params.botUsername, params.botId);
  return {
    ...message,
    text,
    threadId: message.threadId === "" ? undefined : message.threadId,
    timestamp: message.timestamp || Date.now(),
    channel: params.channel,
    accountId: params.accountId,
    sessionKey: params.sessionKey,
    bodyForAgent: stripped.length > 0 ? stripped : text.trim(),
    bodyForCommands: commandText(stripped, params.botUsername),
    wasMentioned: params.wasMentioned,
    commandAuthorized: params.commandAuthorized,
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
