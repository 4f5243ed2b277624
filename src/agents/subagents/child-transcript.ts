import type { TranscriptMessage } from "../types.js";

/** Replies that mean "nothing to report"; never taken as a child's result. */
const SILENT = new Set(["NO_REPLY", "ANNOUNCE_SKIP"]);

interface Block {
  type?: unknown;
  text?: unknown;
}

function blocks(message: TranscriptMessage): Block[] {
  return Array.isArray(message.content) ? (message.content as Block[]) : [];
}

function visibleText(message: TranscriptMessage): string {
  return blocks(message)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("")
    .trim();
}

function callsTools(message: TranscriptMessage): boolean {
  return blocks(message).some((b) => b.type === "toolCall");
}

function since(message: TranscriptMessage, at: number): boolean {
  return typeof message.timestamp === "number" && message.timestamp >= at;
}

/**
 * The child's result for a round: its latest final assistant text since the round began —
 * visible text only, never tool output, and never a silent reply.
 */
export function latestReply(history: readonly TranscriptMessage[], roundStartedAt: number): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (!since(message, roundStartedAt)) break;
    if (message.role !== "assistant" || callsTools(message)) continue;
    const text = visibleText(message);
    if (text && !SILENT.has(text.toUpperCase())) return text;
  }
  return "";
}

/** True when the transcript ends in a finished final answer of this round (nothing after it waits for a turn). */
export function endsWithFinalAnswer(history: readonly TranscriptMessage[], roundStartedAt: number): boolean {
  const last = history[history.length - 1];
  if (last?.role !== "assistant" || !since(last, roundStartedAt) || callsTools(last)) return false;
  const stopReason = (last as { stopReason?: unknown }).stopReason;
  return stopReason === undefined || stopReason === "stop" || stopReason === "length";
}
