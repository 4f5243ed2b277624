import type { TranscriptMessage } from "../../agents/types.js";

/**
 * The transcript is append-only in arrival order: a message that waited in the queue was
 * written when it arrived, before the answers to earlier messages. Each turn's first assistant
 * message names the messages it answers (`answers`: their idempotency keys); this puts every
 * answered user message right before its answer, so history reads question, answer, question,
 * answer. Messages not answered (yet) keep their place.
 */
export function orderConversation(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  const answeredBy = new Map<string, number>();
  messages.forEach((m, index) => {
    const answers = (m as { answers?: unknown }).answers;
    if (m.role === "assistant" && Array.isArray(answers)) for (const id of answers) if (typeof id === "string" && !answeredBy.has(id)) answeredBy.set(id, index);
  });
  if (answeredBy.size === 0) return [...messages];
  const held = new Map<number, TranscriptMessage[]>();
  const out: TranscriptMessage[] = [];
  messages.forEach((m, index) => {
    const key = userKey(m);
    const answerAt = key ? answeredBy.get(key) : undefined;
    if (answerAt !== undefined && answerAt > index) {
      const list = held.get(answerAt) ?? [];
      list.push(m);
      held.set(answerAt, list);
      return;
    }
    out.push(...(held.get(index) ?? []), m);
  });
  return out;
}

/** The idempotency key of a user message, if it has one. */
export function userKey(message: TranscriptMessage): string | undefined {
  if (message.role !== "user") return undefined;
  const key = (message as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === "string" ? key : undefined;
}
