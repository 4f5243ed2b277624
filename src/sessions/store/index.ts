export { SessionStore, type AgentPrune, type MaintenanceScope, type RemovedFile, type SessionStoreOptions } from "./session-store.js";
export { StaleWriterError, SessionNotFoundError } from "./session-store-errors.js";
export type { AppendMeta, SessionEntry, SessionInit, SessionOrigin, SessionPatch } from "./session-entry.js";
export type { KeepReason, PruneOptions, PruneVerdict } from "./prune-plan.js";
export type { DiskBudgetPlan } from "./disk-budget.js";
export { indexFile } from "./session-paths.js";
export type { RotateOptions, RotateResult } from "./rotate-transcript.js";
export type { ParsedTranscript } from "./transcript-reader.js";
export { parseTranscript } from "./transcript-reader.js";
export { readTranscriptHead, readTranscriptTailWindow, type TranscriptEnd } from "./transcript-ends.js";
export {
  TRANSCRIPT_VERSION,
  isMessageEntry,
  type TranscriptEntry,
  type TranscriptEntryInput,
  type TranscriptHeader,
  type TranscriptMessageEntry,
} from "./transcript-lines.js";
export { WITHDRAWN_CUSTOM_TYPE, withdrawalEntry, withdrawnEntryIds, type WithdrawalReason } from "./withdrawn-messages.js";
