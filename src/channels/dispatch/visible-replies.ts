import { findAgentEntry } from "../../agents/agent-config.js";
import type { ReplyVia } from "../../agents/conversation-port.js";
import type { OpenClawConfig } from "../../config/index.js";

type VisibleReplies = "automatic" | "message_tool";

/** A `visibleReplies` value as OpenClaw reads it: `true` is `automatic`, `false` is `message_tool`. */
function visibleReplies(value: VisibleReplies | boolean | undefined): VisibleReplies | undefined {
  if (value === true) return "automatic";
  if (value === false) return "message_tool";
  return value;
}

/**
 * How the answer to a chat message reaches the chat. A room event answers only through the
 * `message` tool, always. Otherwise `messages.groupChat.visibleReplies` (groups and channels),
 * then `messages.visibleReplies`, decide; a command that hands the agent a message (`/skill`) is
 * answered as usual. Undefined: the final text is the reply.
 */
export function replyViaFor(config: OpenClawConfig, chatType: string, how: { roomEvent: boolean; command: boolean }): ReplyVia | undefined {
  if (how.roomEvent) return "message_tool_only";
  if (how.command) return undefined;
  const messages = config.messages;
  const group = chatType !== "direct";
  const mode = (group ? visibleReplies(messages?.groupChat?.visibleReplies) : undefined) ?? visibleReplies(messages?.visibleReplies);
  return mode === "message_tool" ? "message_tool" : undefined;
}

/** `unmentionedInbound` for the agent a group message is routed to: its own `groupChat` setting, else `messages.groupChat`'s. */
export function unmentionedAreRoomEvents(config: OpenClawConfig, agentId: string): boolean {
  const own = findAgentEntry(config, agentId)?.groupChat?.unmentionedInbound;
  return (own ?? config.messages?.groupChat?.unmentionedInbound) === "room_event";
}

export const ROOM_EVENT_RULE =
  "Treat this message as observed room activity, not a request: you were not mentioned. Default: stay silent. Only respond if you have something useful, substantial or important to add; an earlier mention or reply is not an invitation to keep talking. To respond visibly, use the `message` tool; your final text here stays private either way.";

/** A room event as the agent reads it: the marker, the messages (`#<id> <what the agent reads of it>`), and the rule. */
export function roomEventText(lines: readonly { messageId: string; text: string }[]): string {
  const context = lines.map((line) => `#${line.messageId} ${line.text}`).join("\n");
  return `[OpenClaw room event]\n\nRoom context:\n${context}\n\n${ROOM_EVENT_RULE}`;
}

/** A stranded reply counts as substantive, as OpenClaw tells: 280+ characters, or 120+ with two sentence ends. */
export function isSubstantiveReply(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length >= 280) return true;
  return trimmed.length >= 120 && (trimmed.match(/[.!?]+(?:\s|$)|[。！？．｡]+/gu) ?? []).length >= 2;
}

/** The one retry a substantive final that never reached the chat gets: deliver it with the `message` tool. */
export function strandedReplyRetryPrompt(finalText: string): string {
  return `Your previous reply was not delivered to the conversation because you did not send it with the \`message\` tool. Your reply text was:\n\n"${finalText}"\n\nDeliver this reply now with the \`message\` tool (leave out \`to\`). Do not add any commentary; just deliver the original reply.`;
}

/** Told to the chat when the retry did not deliver the reply either. */
export const STRANDED_REPLY_NOTICE = "I generated a reply but could not deliver it to this chat. Please try again.";
