/**
 * Reading the gateway's messages (chat.history rows, chat event messages): their text, and one
 * line per tool call an assistant message made.
 */
import type { EntryKind } from "./chat-log.js";

interface ContentBlock {
  type?: string;
  text?: string;
  name?: string;
  arguments?: unknown;
}

/** The text parts of a message's content (a string, or blocks of which `text` ones count), joined. */
export function messageText(message: unknown): string {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as ContentBlock[])
    .filter((block) => block?.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/** A tool call's line: its name and its arguments as JSON, cut to a screen's width. */
export function toolCallLine(name: string, args: unknown): string {
  let shown = "";
  try {
    shown = args === undefined ? "" : JSON.stringify(args);
  } catch {
    shown = "";
  }
  if (shown.length > 100) shown = `${shown.slice(0, 99)}\u2026`;
  return shown ? `${name} ${shown}` : name;
}

/** chat.history's messages as log entries, oldest first: user and assistant text, tool calls; tool results and other roles are left out. */
export function historyEntries(messages: unknown[]): { kind: EntryKind; text: string }[] {
  const entries: { kind: EntryKind; text: string }[] = [];
  for (const message of messages) {
    const role = (message as { role?: unknown })?.role;
    if (role !== "user" && role !== "assistant") continue;
    const text = messageText(message);
    const command = (message as { command?: unknown }).command === true;
    if (text) entries.push({ kind: role === "user" ? "user" : command ? "system" : "assistant", text });
    const content = (message as { content?: unknown }).content;
    if (role === "assistant" && Array.isArray(content)) {
      for (const block of content as ContentBlock[]) {
        if (block?.type === "toolCall" && typeof block.name === "string") entries.push({ kind: "tool", text: toolCallLine(block.name, block.arguments) });
      }
    }
  }
  return entries;
}
