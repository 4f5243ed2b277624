import fs from "node:fs";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import type { IdempotencyRecord, IdempotencyStatus } from "./idempotency-record.js";

/**
 * The ledger on disk: JSON lines, appended and fsynced per operation. Three line kinds:
 * `begin` and `complete` while running, `record` (a whole record) after compaction. Replaying
 * them in order rebuilds the map; unreadable lines (a torn last write) are skipped.
 */

export type LedgerLine =
  | { op: "begin"; key: string; runId: string; sessionKey?: string; method: string; at: number }
  | { op: "complete"; key: string; status: IdempotencyStatus; summary?: string; result?: unknown; resultOmitted?: boolean; at: number }
  | ({ op: "record" } & IdempotencyRecord);

export function replayLedger(file: string): { records: Map<string, IdempotencyRecord>; skippedLines: number } {
  const records = new Map<string, IdempotencyRecord>();
  let skippedLines = 0;
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  for (const raw of text.split("\n")) {
    if (raw.trim().length === 0) continue;
    const line = parseLine(raw);
    if (!line) {
      skippedLines += 1;
      continue;
    }
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
  return { records, skippedLines };
}

/** Replaces the file with one `record` line per record, atomically. */
export function writeCompactedLedger(file: string, records: Iterable<IdempotencyRecord>): void {
  const lines: string[] = [];
  for (const record of records) lines.push(JSON.stringify({ op: "record", ...record }));
  writeFileAtomicSync(file, lines.length ? lines.join("\n") + "\n" : "", 0o600);
}

/**
 * An append-only handle: each line is written before `append` returns, and fsynced unless the
 * caller says the line may be lost in a crash (a completion: a lost one reads back as
 * "interrupted", which still never starts a second run).
 */
export class LedgerAppender {
  private fd: number | undefined;

  constructor(private readonly file: string) {}

  append(line: LedgerLine, durable = true): void {
    this.fd ??= fs.openSync(this.file, "a", 0o600);
    const bytes = Buffer.from(JSON.stringify(line) + "\n", "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += fs.writeSync(this.fd, bytes, offset, bytes.length - offset);
    if (durable) fs.fsyncSync(this.fd);
  }

  /** Closes the handle (before the file is replaced by compaction, and on shutdown). */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
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

function parseLine(raw: string): LedgerLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.key !== "string") return undefined;
  if (v.op === "begin" && typeof v.runId === "string" && typeof v.at === "number") return v as LedgerLine;
  if (v.op === "complete" && typeof v.status === "string" && typeof v.at === "number") return v as LedgerLine;
  if (v.op === "record" && typeof v.runId === "string" && typeof v.status === "string" && typeof v.startedAt === "number") return v as LedgerLine;
  return undefined;
}
