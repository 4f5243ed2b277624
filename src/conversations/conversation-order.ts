import type { TranscriptMessage } from "../agents/types.js";

/**
 * The transcript is append-only in arrival order: a message that waited in the queue was
 * written when it arrived, before the answers to earlier messages. Each turn's first assistant
 * message names the messages it answers (`answers`: their idempotency keys); this puts every
 * answered user message right before its answer, so history reads question, answer, question,
 * answer. Messages not answered (yet) keep their place. (ConversationWindow keeps the same
 * order up to date message by message for turns.)
 */
export function orderConversation(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  // Plain loops: this runs over the whole history on every turn.
  const answeredBy = answerPositions(messages);
  if (answeredBy.size === 0) return [...messages];
  const held = new Map<number, TranscriptMessage[]>();
  const out: TranscriptMessage[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const m = messages[index]!;
    const before = held.get(index);
    if (before) for (const h of before) out.push(h);
    const key = userKey(m);
    const answerAt = key ? answeredBy.get(key) : undefined;
    if (answerAt !== undefined && answerAt > index) {
      const list = held.get(answerAt);
      if (list) list.push(m);
      else held.set(answerAt, [m]);
      continue;
    }
    out.push(m);
  }
  return out;
}

/**
 * The conversation as chat surfaces show it: `orderConversation`, except that a user message not
 * answered (yet) never shows before one that arrived earlier. One that arrived while an earlier
 * message's turn was running shows after that turn (its answer, tool calls and results), where a
 * person expects a message still waiting for its own answer. A model turn's history needs no such
 * rule: it never contains unanswered messages of the live queue.
 */
export function orderForDisplay(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  const answeredBy = answerPositions(messages);
  const held = new Map<number, TranscriptMessage[]>();
  const out: TranscriptMessage[] = [];
  let deferred: TranscriptMessage[] = [];
  let heldUntil = -1;
  for (let index = 0; index < messages.length; index += 1) {
    const m = messages[index]!;
    const key = userKey(m);
    const startsTurn = m.role === "user" || Array.isArray((m as { answers?: unknown }).answers);
    if (deferred.length > 0 && index > heldUntil && startsTurn) {
      out.push(...deferred);
      deferred = [];
    }
    const before = held.get(index);
    if (before) out.push(...before);
    const answerAt = key ? answeredBy.get(key) : undefined;
    if (answerAt !== undefined && answerAt > index) {
      const list = held.get(answerAt);
      if (list) list.push(m);
      else held.set(answerAt, [m]);
      heldUntil = Math.max(heldUntil, answerAt);
      continue;
    }
    if (m.role === "user" && index < heldUntil) deferred.push(m);
    else out.push(m);
  }
  out.push(...deferred);
  return out;
}

/** Where each user message is first answered: its idempotency key → the index of the first assistant message naming it. */
function answerPositions(messages: readonly TranscriptMessage[]): Map<string, number> {
  const answeredBy = new Map<string, number>();
  for (let index = 0; index < messages.length; index += 1) {
    const m = messages[index]!;
    if (m.role !== "assistant") continue;
    const answers = (m as { answers?: unknown }).answers;
    if (!Array.isArray(answers)) continue;
    for (const id of answers) if (typeof id === "string" && !answeredBy.has(id)) answeredBy.set(id, index);
  }
  return answeredBy;
}

/** The idempotency key of a user message, if it has one. */
export function userKey(message: TranscriptMessage): string | undefined {
  if (message.role !== "user") return undefined;
  const key = (message as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === "string" ? key : undefined;
}
