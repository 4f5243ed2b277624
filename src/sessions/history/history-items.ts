import type { ModelMessage, TranscriptMessage } from "../../models/messages.js";
import type { TranscriptEntry } from "../store/transcript-lines.js";
import { withdrawnTargetOf } from "../store/withdrawn-messages.js";

/** What history is read from: transcript entries (from readTranscript) or bare messages. */
export type HistorySource = TranscriptEntry | TranscriptMessage | ModelMessage;

export type HistoryItem =
  /** `withdrawn`: a later marker took the message out of the conversation (it left the queue unanswered). */
  | { kind: "message"; id?: string; message: TranscriptMessage; withdrawn?: true }
  | { kind: "compaction"; id?: string; summary: string; firstKeptEntryId?: string; timestamp: number };

/**
 * Reduces sources to the two things history cares about: messages and compaction points.
 * Other entry kinds (model changes, labels, `custom` extension state) never enter the context;
 * a withdrawal marker (withdrawn-messages.ts) flags the message it names as `withdrawn`.
 */
export function toHistoryItems(sources: readonly HistorySource[]): HistoryItem[] {
  const withdrawn = new Set<string>();
  for (const source of sources) {
    const target = withdrawnTargetOf(source as Record<string, unknown>);
    if (target !== undefined) withdrawn.add(target);
  }
  const items: HistoryItem[] = [];
  for (const source of sources) {
    const s = source as Record<string, unknown>;
    if (typeof s.role === "string") {
      items.push({ kind: "message", message: source as TranscriptMessage });
    } else if (s.type === "message" && isMessage(s.message)) {
      const id = idOf(s);
      items.push({ kind: "message", id, message: s.message, ...(id !== undefined && withdrawn.has(id) ? { withdrawn: true as const } : {}) });
    } else if (s.type === "compaction" && typeof s.summary === "string") {
      items.push({
        kind: "compaction",
        id: idOf(s),
        summary: s.summary,
        firstKeptEntryId: typeof s.firstKeptEntryId === "string" ? s.firstKeptEntryId : undefined,
        timestamp: typeof s.timestamp === "string" ? Date.parse(s.timestamp) || 0 : 0,
      });
    }
  }
  return items;
}

/**
 * Applies the most recent compaction: its summary stands for everything before
 * `firstKeptEntryId`, so only the messages from there on remain. The kept entry is searched
 * backwards from the compaction (nearest match), which also makes a rare id repeat harmless.
 * Withdrawn messages are left out only after the cut is found: a compaction may have kept from
 * a message that was withdrawn later, and the messages after it still stand.
 */
export function afterLatestCompaction(items: readonly HistoryItem[]): {
  summary?: Extract<HistoryItem, { kind: "compaction" }>;
  messages: Extract<HistoryItem, { kind: "message" }>[];
} {
  let at = -1;
  for (let i = items.length - 1; i >= 0; i -= 1) {
    if (items[i]!.kind === "compaction") {
      at = i;
      break;
    }
  }
  const onlyMessages = (list: readonly HistoryItem[]) => list.filter((i): i is Extract<HistoryItem, { kind: "message" }> => i.kind === "message" && !i.withdrawn);
  if (at < 0) return { messages: onlyMessages(items) };
  const compaction = items[at] as Extract<HistoryItem, { kind: "compaction" }>;
  let start = at + 1;
  if (compaction.firstKeptEntryId) {
    for (let i = at - 1; i >= 0; i -= 1) {
      if (items[i]!.id === compaction.firstKeptEntryId) {
        start = i;
        break;
      }
    }
  }
  const kept = start < at ? [...items.slice(start, at), ...items.slice(at + 1)] : items.slice(at + 1);
  return { summary: compaction, messages: onlyMessages(kept) };
}

function isMessage(value: unknown): value is TranscriptMessage {
  return typeof value === "object" && value !== null && typeof (value as { role?: unknown }).role === "string";
}

function idOf(s: Record<string, unknown>): string | undefined {
  return typeof s.id === "string" ? s.id : undefined;
}
