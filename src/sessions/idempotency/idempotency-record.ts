/**
 * What the ledger remembers about one idempotency key. `in_flight` is the protocol's word for a
 * run that was accepted and has not finished; `interrupted` marks one whose process died
 * before it finished — its outcome is unknown, but it must never be started a second time.
 */
export type IdempotencyStatus = "in_flight" | "ok" | "error" | "aborted" | "interrupted";
/** `interrupted` on completion: the gateway's stop cut the run, as a crash would have. */
export type CompletionStatus = "ok" | "error" | "aborted" | "interrupted";

export interface IdempotencyRecord {
  key: string;
  /** The run that answers the key: for a key merged into another message's turn, that turn's run. */
  runId: string;
  sessionKey?: string;
  /** The RPC or route that accepted it (`agent`, `chat.send`, `http`, …). */
  method: string;
  status: IdempotencyStatus;
  startedAt: number;
  completedAt?: number;
  summary?: string;
  /** The cached response, when it fit in MAX_RESULT_BYTES. */
  result?: unknown;
  /** A result was given but was too large (or not JSON) to keep. */
  resultOmitted?: boolean;
  /** Keys of other messages merged into this run's turn: each has its own record, ended with this one. */
  merged?: string[];
}

export interface BeginParams {
  runId: string;
  sessionKey?: string;
  method: string;
  /**
   * Keys of other messages this run answers (an inbound debounce burst). Each is recorded as
   * accepted by this run in the same line as the key itself, so a crash keeps all or none.
   */
  merged?: readonly string[];
}

export interface CompleteParams {
  status: CompletionStatus;
  summary?: string;
  result?: unknown;
}

export type BeginOutcome = { fresh: true; record: IdempotencyRecord } | { fresh: false; record: IdempotencyRecord };

/** Duplicates are answered from the ledger for a day — well beyond any client's retry window. */
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_RECORDS = 10_000;
export const MAX_RESULT_BYTES = 64 * 1024;
export const MAX_SUMMARY_CHARS = 2_000;
export const MAX_KEY_LENGTH = 1_024;

/** The result as stored: kept when its JSON fits the cap, otherwise dropped with a flag (the status still answers duplicates). */
export function boundResult(result: unknown): { result?: unknown; resultOmitted?: true } {
  if (result === undefined) return {};
  let json: string | undefined;
  try {
    json = JSON.stringify(result);
  } catch {
    return { resultOmitted: true };
  }
  if (json === undefined || Buffer.byteLength(json, "utf8") > MAX_RESULT_BYTES) return { resultOmitted: true };
  return { result: JSON.parse(json) as unknown };
}

export function boundSummary(summary: string | undefined): string | undefined {
  if (summary === undefined) return undefined;
  return summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary;
}
