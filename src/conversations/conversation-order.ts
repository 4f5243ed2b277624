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
  const answeredBy = new Map<string, number>();
  for (let index = 0; index < messages.length; index += 1) {
    const m = messages[index]!;
    if (m.role !== "assistant") continue;
    const answers = (m as { answers?: unknown }).answers;
    if (!Array.isArray(answers)) continue;
    for (const id of answers) if (typeof id === "string" && !answeredBy.has(id)) answeredBy.set(id, index);
  }
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

/** The idempotency key of a user message, if it has one. */
export function userKey(message: TranscriptMessage): string | undefined {
  if (message.role !== "user") return undefined;
  const key = (message as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === "string" ? key : undefined;
}
