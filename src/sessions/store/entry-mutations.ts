import { STORE_OWNED_FIELDS, type AppendMeta, type SessionEntry, type SessionPatch } from "./session-entry.js";
import type { TranscriptEntry } from "./transcript-lines.js";
import { conversationMessageDelta } from "./withdrawn-messages.js";

/** Applies a patch in place: `null` removes a field, `undefined` is ignored, store-owned fields are never touched. */
export function applyPatch(entry: SessionEntry, patch: SessionPatch): void {
  const target = entry as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(patch)) {
    if ((STORE_OWNED_FIELDS as readonly string[]).includes(field) || value === undefined) continue;
    if (value === null) delete target[field];
    else target[field] = value;
  }
}

/** Puts an entry object back to a snapshot (used to undo an in-memory change whose index write failed). */
export function restoreEntry(entry: SessionEntry, snapshot: SessionEntry): void {
  const target = entry as unknown as Record<string, unknown>;
  for (const field of Object.keys(target)) delete target[field];
  Object.assign(target, snapshot);
}

/** Index bookkeeping for an append: activity time, message count, usage counters, caller metadata. */
export function recordAppend(entry: SessionEntry, written: readonly TranscriptEntry[], meta: AppendMeta | undefined, now: number): void {
  entry.updatedAt = now;
  // A withdrawn message leaves the conversation: its marker takes it back out of the count.
  entry.messageCount = Math.max(0, entry.messageCount + conversationMessageDelta(written));
  if (meta?.usage) {
    // Cached prompt tokens are still prompt tokens: input counts all three.
    entry.inputTokens += meta.usage.input + meta.usage.cacheRead + meta.usage.cacheWrite;
    entry.outputTokens += meta.usage.output;
    entry.totalTokens = entry.inputTokens + entry.outputTokens;
  }
  if (meta?.contextTokens !== undefined) entry.contextTokens = meta.contextTokens;
  if (meta?.patch) applyPatch(entry, meta.patch);
}
