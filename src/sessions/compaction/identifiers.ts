import type { TranscriptMessage } from "../../models/messages.js";

/** How many identifiers a summary is held to: the newest ones, which later turns most likely need. */
export const MAX_GUARDED_IDENTIFIERS = 40;

const EDGE_PUNCTUATION = /^[\s([{<"'`*_]+|[\s)\]}>"'`*_.,;:!?]+$/g;

/**
 * Opaque identifiers in a text: URLs, paths, and any word of 4+ characters with a digit in it
 * (ids, hashes, ticket numbers, versions, long numbers). A summary that rewords them ("the
 * invoice number") loses what later turns need, so compaction checks they survive verbatim.
 */
export function extractIdentifiers(text: string): string[] {
  const found: string[] = [];
  const rest = text.replace(URL, (url) => {
    found.push(url.replace(/[.,;:!?)\]}'"]+$/, ""));
    return " ";
  });
  for (const raw of rest.split(DELIMITERS)) {
    const word = raw.replace(EDGE_PUNCTUATION, "");
    if (word.length < 4 || word.length > 200) continue;
    if (/\d/.test(word) || (PATH.test(word) && word.includes("/"))) found.push(word);
  }
  return found;
}

const URL = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const DELIMITERS = /[\s"'`(){}[\],;=<>|]+/;
/** `/etc/hosts`, `~/notes.md`, `src/app/main.ts`: at least one slash between word characters. */
const PATH = /^(~|\.{1,2})?\/?[\w.@+-]+(\/[\w.@+-]+)+\/?$/;

/**
 * The identifiers a summary of `messages` (plus the summary it replaces) must keep: from user
 * and assistant text and tool-call arguments, newest first, without repeats, at most
 * MAX_GUARDED_IDENTIFIERS. Tool results are left out: a log dump is mostly numbers nobody needs.
 */
export function guardedIdentifiers(messages: readonly TranscriptMessage[], previousSummary?: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const take = (text: string): boolean => {
    const ids = extractIdentifiers(text);
    for (let i = ids.length - 1; i >= 0; i -= 1) {
      const id = ids[i]!;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
      if (out.length >= MAX_GUARDED_IDENTIFIERS) return true;
    }
    return false;
  };
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role !== "user" && message.role !== "assistant") continue;
    if (take(messageText(message, true))) return out;
  }
  if (previousSummary) take(previousSummary);
  return out;
}

export function missingIdentifiers(summary: string, identifiers: readonly string[]): string[] {
  return identifiers.filter((id) => !summary.includes(id));
}

/** The readable text of a message; with `withToolArgs`, tool calls as `name(args)`. */
export function messageText(message: TranscriptMessage, withToolArgs = false): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content as Record<string, unknown>[]) {
    if (block?.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (withToolArgs && block?.type === "toolCall") parts.push(`${String(block.name)}(${JSON.stringify(block.arguments ?? {})})`);
    else if (block?.type === "image") parts.push("[image]");
  }
  return parts.join("\n");
}
