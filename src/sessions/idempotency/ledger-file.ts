import type { IdempotencyRecord, IdempotencyStatus } from "./idempotency-record.js";

/**
 * The ledger on disk: JSON lines (a KeyedJsonLinesLog), appended per operation. Three line kinds:
 * `begin` and `complete` while running, `record` (a whole record) after compaction. Replaying
 * them in order rebuilds the map.
 */

export type LedgerLine =
  | { op: "begin"; key: string; runId: string; sessionKey?: string; method: string; at: number; merged?: string[] }
  | { op: "complete"; key: string; status: IdempotencyStatus; summary?: string; result?: unknown; resultOmitted?: boolean; at: number }
  | ({ op: "record" } & IdempotencyRecord);

/** Applies one line read back from the file; a line of another shape changes nothing. */
export function replayLedgerLine(records: Map<string, IdempotencyRecord>, value: unknown): void {
  const line = asLedgerLine(value);
  if (!line) return;
  if (line.op === "begin") applyBegin(records, line);
  else if (line.op === "complete") applyCompletion(records, line);
  else {
    const { op: _op, ...record } = line;
    records.delete(record.key);
    records.set(record.key, record);
  }
}

/**
 * A run began: its key's record, and one for every key merged into its turn (they share its
 * runId). The ledger applies its own appends with it too, so memory and replay agree.
 */
export function applyBegin(records: Map<string, IdempotencyRecord>, line: Extract<LedgerLine, { op: "begin" }>): void {
  const started = {
    runId: line.runId,
    method: line.method,
    status: "in_flight" as const,
    startedAt: line.at,
    ...(line.sessionKey !== undefined ? { sessionKey: line.sessionKey } : {}),
  };
  // A line read back from disk is not trusted to hold a list of keys.
  const merged = Array.isArray(line.merged) ? line.merged.filter((k): k is string => typeof k === "string" && k !== "" && k !== line.key) : [];
  for (const key of [line.key, ...merged]) {
    records.delete(key); // keep insertion order = start order
    records.set(key, { key, ...started, ...(key === line.key && merged.length > 0 ? { merged } : {}) });
  }
}

/** A run ended: its key's record and those of the keys merged into its turn take the outcome. */
export function applyCompletion(records: Map<string, IdempotencyRecord>, line: Extract<LedgerLine, { op: "complete" }>): void {
  const record = records.get(line.key);
  if (!record) return;
  const fields = completionFields(line);
  Object.assign(record, fields);
  for (const key of record.merged ?? []) {
    const merged = records.get(key);
    if (merged?.runId === record.runId && merged.status === "in_flight") Object.assign(merged, fields);
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
