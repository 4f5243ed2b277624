import type { IdempotencyRecord, IdempotencyStatus } from "./idempotency-record.js";

/**
 * The ledger on disk: JSON lines (a KeyedJsonLinesLog), appended per operation. Three line kinds:
 * `begin` and `complete` while running, `record` (a whole record) after compaction. Replaying
 * them in order rebuilds the map.
 */

export type LedgerLine =
  | { op: "begin"; key: string; runId: string; sessionKey?: string; method: string; at: number }
  | { op: "complete"; key: string; status: IdempotencyStatus; summary?: string; result?: unknown; resultOmitted?: boolean; at: number }
  | ({ op: "record" } & IdempotencyRecord);

/** Applies one line read back from the file; a line of another shape changes nothing. */
export function replayLedgerLine(records: Map<string, IdempotencyRecord>, value: unknown): void {
  const line = asLedgerLine(value);
  if (!line) return;
  if (line.op === "begin") {
    records.delete(line.key); // keep insertion order = start order
    records.set(line.key, { key: line.key, runId: line.runId, sessionKey: line.sessionKey, method: line.method, status: "in_flight", startedAt: line.at });
  } else if (line.op === "complete") {
    const record = records.get(line.key);
    if (record) Object.assign(record, completionFields(line));
  } else {
    const { op: _op, ...record } = line;
    records.delete(record.key);
    records.set(record.key, record);
  }
}

/** The compacted form: one `record` line per record. */
export function compactedLine(record: IdempotencyRecord): LedgerLine {
  return { op: "record", ...record };
}

function completionFields(line: Extract<LedgerLine, { op: "complete" }>): Partial<IdempotencyRecord> {
  return {
    status: line.status,
    completedAt: line.at,
    ...(line.summary !== undefined ? { summary: line.summary } : {}),
    ...(line.result !== undefined ? { result: line.result } : {}),
    ...(line.resultOmitted ? { resultOmitted: true } : {}),
  };
}

function asLedgerLine(value: unknown): LedgerLine | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.key !== "string") return undefined;
  if (v.op === "begin" && typeof v.runId === "string" && typeof v.at === "number") return v as LedgerLine;
  if (v.op === "complete" && typeof v.status === "string" && typeof v.at === "number") return v as LedgerLine;
  if (v.op === "record" && typeof v.runId === "string" && typeof v.status === "string" && typeof v.startedAt === "number") return v as LedgerLine;
  return undefined;
}
