import type { TranscriptMessage } from "../../models/messages.js";
import { messageText } from "./identifiers.js";

/**
 * The summarizer's instructions. The marker line lets logs (and the tests' fake model) tell a
 * summary request from a conversation turn.
 */
export const SUMMARY_SYSTEM_PROMPT = [
  "You maintain the running summary of a conversation between a user and an AI assistant. Older messages are being removed from the assistant's context; your summary is all it will keep of them.",
  "Write one self-contained summary that replaces the previous one: fold in what still matters from <previous-summary> and add what the <conversation> adds. Do not copy the previous summary wholesale, and drop what no longer matters.",
  "Keep, under these headings:",
  "## Active tasks — what is being worked on and its state",
  "## Progress — what was done, with outcomes",
  "## Latest request — the user's most recent ask, and anything still pending",
  "## Decisions — what was decided and why",
  "## Facts for later — names, preferences, constraints, and every value later steps depend on",
  "Copy every identifier listed in <identifiers> exactly as written (ids, paths, URLs, numbers): never paraphrase, shorten or round them.",
  "Answer with the summary only, in the conversation's language.",
].join("\n");

/** Characters of one tool result shown to the summarizer: its head and its tail. */
const TOOL_RESULT_CHARS = 2_000;

export interface SummaryPromptInput {
  messages: readonly TranscriptMessage[];
  previousSummary?: string;
  identifiers: readonly string[];
  /** From `/compact <instructions>` or `sessions.compact`. */
  instructions?: string;
  /** Identifiers a first attempt dropped: named again, more insistently. */
  missing?: readonly string[];
}

/** The user message of a summary request. */
export function buildSummaryPrompt(input: SummaryPromptInput): string {
  const parts: string[] = [];
  if (input.previousSummary) parts.push(`<previous-summary>\n${input.previousSummary}\n</previous-summary>`);
  parts.push(`<conversation>\n${serializeConversation(input.messages)}\n</conversation>`);
  if (input.identifiers.length > 0) parts.push(`<identifiers>\n${input.identifiers.join("\n")}\n</identifiers>`);
  if (input.instructions) parts.push(`<instructions>\n${input.instructions}\n</instructions>`);
  if (input.missing?.length) parts.push(`Your previous attempt left out these identifiers; include each of them verbatim:\n${input.missing.join("\n")}`);
  return parts.join("\n\n");
}

/** The conversation as plain labelled lines; tool results cut to their head and tail. */
export function serializeConversation(messages: readonly TranscriptMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "user") lines.push(`[user]: ${messageText(message)}`);
    else if (message.role === "assistant") {
      const text = messageText(message, true);
      if (text) lines.push(`[assistant]: ${text}`);
    } else if (message.role === "toolResult") {
      const name = typeof message.toolName === "string" ? message.toolName : "tool";
      lines.push(`[${name} result${message.isError ? ", error" : ""}]: ${clip(messageText(message))}`);
    }
  }
  return lines.join("\n");
}

function clip(text: string): string {
  if (text.length <= TOOL_RESULT_CHARS) return text;
  const half = TOOL_RESULT_CHARS / 2;
  return `${text.slice(0, half)}\n…[${text.length - TOOL_RESULT_CHARS} characters omitted]…\n${text.slice(-half)}`;
}
