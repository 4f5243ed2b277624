import type { ModelMessage, TranscriptMessage } from "../../models/messages.js";

/**
 * Splits a conversation into units that must be kept or dropped whole. An assistant turn that
 * calls tools forms one unit with the tool results that follow it: a history holding the call
 * without its result (or a result without its call) is rejected by every provider and
 * confuses the model about what happened.
 */

export const CONVERSATION_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "toolResult"]);

export function isConversationMessage(message: TranscriptMessage | ModelMessage): boolean {
  return CONVERSATION_ROLES.has(message.role);
}

/**
 * Groups `items` (messages, or transcript entries via `messageOf`) in order. Messages with
 * other roles are dropped, as are tool results with no open tool-calling turn before them
 * (their call was lost; they cannot be replayed alone).
 */
export function groupConversationUnits<T>(items: readonly T[], messageOf: (item: T) => TranscriptMessage): T[][] {
  const units: T[][] = [];
  let openToolTurn: T[] | undefined;
  for (const item of items) {
    const message = messageOf(item);
    if (message.role === "toolResult") {
      if (openToolTurn) openToolTurn.push(item);
      continue;
    }
    openToolTurn = undefined;
    if (message.role === "user") {
      units.push([item]);
    } else if (message.role === "assistant") {
      const unit = [item];
      units.push(unit);
      if (hasToolCalls(message)) openToolTurn = unit;
    }
  }
  return units;
}

export function hasToolCalls(message: TranscriptMessage | ModelMessage): boolean {
  const content = (message as { content?: unknown }).content;
  return Array.isArray(content) && content.some((block) => (block as { type?: unknown } | null)?.type === "toolCall");
}
