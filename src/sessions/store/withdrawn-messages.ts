import type { TranscriptEntry, TranscriptEntryInput } from "./transcript-lines.js";

/**
 * A user message is written to the transcript when it arrives, before it is acknowledged. One
 * that then leaves the queue without ever reaching the model (dropped by `messages.queue.drop`,
 * aborted while it waited) is marked by a later `custom` entry of this type naming its entry id:
 * readers leave it out of the conversation. The transcript stays append-only, and a reader that
 * does not know the type skips it as it skips any `custom` entry (extension state, never context).
 */
export const WITHDRAWN_CUSTOM_TYPE = "openclaw.message-withdrawn";

/** Why the message left the queue unanswered. */
export type WithdrawalReason = "dropped" | "aborted";

export function withdrawalEntry(targetId: string, runId: string, reason: WithdrawalReason): TranscriptEntryInput {
  return { type: "custom", customType: WITHDRAWN_CUSTOM_TYPE, data: { targetId, runId, reason } };
}

/** The entry id a withdrawal marker names, or undefined when `entry` is none. */
export function withdrawnTargetOf(entry: { type?: unknown; customType?: unknown; data?: unknown }): string | undefined {
  if (entry.type !== "custom" || entry.customType !== WITHDRAWN_CUSTOM_TYPE) return undefined;
  const targetId = (entry.data as { targetId?: unknown } | null | undefined)?.targetId;
  return typeof targetId === "string" ? targetId : undefined;
}

/**
 * How many messages the conversation holds among `entries`: message entries, less those a
 * withdrawal marker among them takes back (each marker names one message, written before it).
 */
export function conversationMessageDelta(entries: readonly { type?: unknown; customType?: unknown; data?: unknown }[]): number {
  let delta = 0;
  for (const entry of entries) {
    if (entry.type === "message") delta += 1;
    else if (withdrawnTargetOf(entry) !== undefined) delta -= 1;
  }
  return delta;
}

/** The entry ids of the withdrawn messages of a transcript (markers anywhere in it count). */
export function withdrawnEntryIds(entries: readonly TranscriptEntry[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    const target = withdrawnTargetOf(entry);
    if (target !== undefined) ids.add(target);
  }
  return ids;
}
