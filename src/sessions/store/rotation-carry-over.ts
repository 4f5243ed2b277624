import { groupConversationUnits } from "../history/conversation-units.js";
import { isMessageEntry, type TranscriptEntry, type TranscriptMessageEntry } from "./transcript-lines.js";
import { withdrawnEntryIds } from "./withdrawn-messages.js";

/**
 * What a rotated transcript starts with, so the conversation continues instead of restarting:
 * the latest compaction summary (it stands for everything older) and the newest conversation
 * messages that fit `keepBytes`, in whole units (a tool call is never separated from its
 * result). Withdrawn messages are not carried (nor their markers). Entries keep their ids; the
 * parent chain is relinked over the kept entries.
 */
export function selectCarryOver(entries: readonly TranscriptEntry[], keepBytes: number): TranscriptEntry[] {
  let compactionAt = -1;
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    if (entries[i]!.type === "compaction") {
      compactionAt = i;
      break;
    }
  }
  const compaction = compactionAt >= 0 ? entries[compactionAt]! : undefined;
  // Messages the summary does not cover: from its first kept entry (which precedes it) on.
  let from = compactionAt + 1;
  if (compaction && typeof compaction.firstKeptEntryId === "string") {
    for (let i = compactionAt - 1; i >= 0; i -= 1) {
      if (entries[i]!.id === compaction.firstKeptEntryId) {
        from = i;
        break;
      }
    }
  }
  const withdrawn = withdrawnEntryIds(entries);
  const messages = entries.slice(from).filter((e): e is TranscriptMessageEntry => isMessageEntry(e) && !withdrawn.has(e.id));
  const units = groupConversationUnits<TranscriptMessageEntry>(messages, (e) => e.message);

  let budget = keepBytes - (compaction ? lineBytes(compaction) : 0);
  const kept: TranscriptMessageEntry[][] = [];
  for (let i = units.length - 1; i >= 0; i -= 1) {
    const cost = units[i]!.reduce((sum, e) => sum + lineBytes(e), 0);
    if (cost > budget) break;
    budget -= cost;
    kept.push(units[i]!);
  }
  const carried: TranscriptEntry[] = kept.reverse().flat();
  if (compaction) {
    // The summary now precedes the first carried message; whatever did not fit stays in the archive.
    const first = carried[0]?.id;
    const { firstKeptEntryId: _old, ...rest } = compaction;
    carried.unshift(first ? { ...rest, firstKeptEntryId: first } : rest);
  }
  return relink(carried);
}

function relink(entries: TranscriptEntry[]): TranscriptEntry[] {
  let parent: string | null = null;
  return entries.map((entry) => {
    const linked = { ...entry, parentId: parent };
    parent = entry.id;
    return linked;
  });
}

function lineBytes(entry: TranscriptEntry): number {
  return Buffer.byteLength(JSON.stringify(entry), "utf8") + 1;
}
