export { IdempotencyLedger, type IdempotencyLedgerOptions } from "./idempotency-ledger.js";
export {
  DEFAULT_MAX_RECORDS,
  DEFAULT_TTL_MS,
  MAX_RESULT_BYTES,
  type BeginOutcome,
  type BeginParams,
  type CompleteParams,
  type CompletionStatus,
  type IdempotencyRecord,
  type IdempotencyStatus,
} from "./idempotency-record.js";
