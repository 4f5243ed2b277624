import type { TranscriptMessage } from "../../agents/types.js";
import { cutUtf16 } from "../../sessions/session-title.js";

/**
 * A transcript message's text as OpenClaw shows it in a session row (its title source and
 * `lastMessagePreview`): user and assistant messages only, their text blocks joined by newlines
 * and trimmed, a user message without a leading channel envelope (`[Telegram Alice …] `), an
 * assistant message that is only a control reply (NO_REPLY, ANNOUNCE_SKIP, REPLY_SKIP) left
 * out, and anything over 240 characters cut to 237 and `...`.
 */

const MAX_CHARS = 240;
const CONTROL_REPLIES = ["NO_REPLY", "ANNOUNCE_SKIP", "REPLY_SKIP"];
const TEXT_BLOCK_TYPES = new Set(["text", "input_text", "output_text"]);
const ENVELOPE_CHANNELS = ["WebChat", "WhatsApp", "Telegram", "Signal", "Slack", "Discord", "Google Chat", "iMessage", "Teams", "Matrix", "Zalo", "Zalo Personal"];

export interface SessionMessageText {
  role: "user" | "assistant";
  text: string;
}

/** The message's shown text, or undefined when the message shows none. `flattenMarkdown` makes it one plain line (previews). */
export function sessionMessageText(message: TranscriptMessage, options: { flattenMarkdown?: boolean } = {}): SessionMessageText | undefined {
  const m = message as { role?: unknown; content?: unknown; text?: unknown; display?: unknown };
  if (m.display === false || (m.role !== "user" && m.role !== "assistant")) return undefined;
  let text = blockText(m.content, m.text)?.trim();
  if (!text) return undefined;
  if (m.role === "assistant" && isControlReply(text)) return undefined;
  if (m.role === "user") text = withoutEnvelope(text).trim();
  if (options.flattenMarkdown) text = flattenMarkdown(text);
  if (!text) return undefined;
  return { role: m.role, text: clip(text, MAX_CHARS) };
}

/** True when the message came from another session (a sub-agent's task, `sessions_send`), not from a person. */
export function isInterSessionMessage(message: TranscriptMessage): boolean {
  const provenance = (message as { provenance?: { kind?: unknown } }).provenance;
  return message.role === "user" && provenance?.kind === "inter_session";
}

function blockText(content: unknown, inline: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const block of content) {
      const b = block as { type?: unknown; text?: unknown } | null;
      if (b && TEXT_BLOCK_TYPES.has(b.type as string) && typeof b.text === "string" && b.text.trim()) parts.push(b.text);
    }
    if (parts.length > 0) return parts.join("\n");
  }
  return typeof inline === "string" ? inline : undefined;
}

/**
 * A reply that is only control tokens: one token, repeated, with punctuation at the edges allowed
 * (`NO_REPLY.`), or tokens followed by the beginning of one (a reply cut while it streamed).
 */
function isControlReply(text: string): boolean {
  const trimmed = text.trim();
  const bare = trimmed
    .replace(/^\p{P}+/u, "")
    .replace(/\p{P}+$/u, "")
    .trim();
  const bareWords = bare.toUpperCase().split(/\s+/);
  if (CONTROL_REPLIES.includes(bareWords[0]!) && bareWords.every((w) => w === bareWords[0])) return true;
  const words = trimmed.toUpperCase().split(/\s+/);
  const last = words.pop()!;
  return words.length > 0 && words.every((w) => CONTROL_REPLIES.includes(w)) && /^[A-Z_]+$/.test(last) && CONTROL_REPLIES.some((t) => t.startsWith(last));
}

/** Drops a leading `[…] ` that names a channel or carries a timestamp; other brackets are the user's own text. */
function withoutEnvelope(text: string): string {
  const match = /^\[([^\]]+)\]\s*/.exec(text);
  if (!match) return text;
  const header = match[1]!;
  const isEnvelope = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z\b/.test(header) || /\d{4}-\d{2}-\d{2} \d{2}:\d{2}\b/.test(header) || ENVELOPE_CHANNELS.some((c) => header.startsWith(`${c} `));
  return isEnvelope ? text.slice(match[0].length) : text;
}

/** Markdown as one line of plain text, each rule in turn (a preview shows the words, not the markup). */
const MARKDOWN_TO_PLAIN: readonly [RegExp, string][] = [
  [/```[\s\S]*?```/g, " "], // a fenced block goes as a whole
  [/```/g, " "], // an unclosed fence's marker
  [/`([^`]*)`/g, "$1"], // inline code keeps its text
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1"], // an image keeps its alt text
  [/\[([^\]]+)\]\([^)]*\)/g, "$1"], // a link keeps its text
  [/^\s{0,3}(?:#{1,6}|>|[-+*]|\d+[.)])\s+/gm, ""], // heading, quote and list markers
  [/(\*{1,2})(?=\S)([\s\S]*?\S)\1/g, "$2"], // *emphasis*, **strong**
  [/(^|[^\p{L}\p{N}])(_{1,2})(?=\S)([\s\S]*?\S)\2(?![\p{L}\p{N}])/gu, "$1$3"], // _emphasis_ outside words
  [/~~(?=\S)([\s\S]*?\S)~~/g, "$1"], // ~~strike~~
  [/\s+/g, " "],
];

function flattenMarkdown(text: string): string {
  let plain = text;
  for (const [pattern, replacement] of MARKDOWN_TO_PLAIN) plain = plain.replace(pattern, replacement);
  return plain.trim();
}

/** At most `limit` UTF-16 units, never half a surrogate pair: cut to `limit - 3` and `...` when longer. */
export function clip(text: string, limit: number, marker = "..."): string {
  if (text.length <= limit) return text;
  return `${cutUtf16(text, limit - marker.length)}${marker}`;
}
