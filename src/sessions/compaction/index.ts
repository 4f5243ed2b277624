export { COMPACTION_DEFAULTS, compactionThresholds, resolveCompactionSettings, type CompactionSettings, type CompactionThresholds } from "./compaction-settings.js";
export { planCompaction, type CompactionPlan, type PlannedMessage, type PlanOptions } from "./plan-compaction.js";
export { extractIdentifiers, guardedIdentifiers, messageText, missingIdentifiers, MAX_GUARDED_IDENTIFIERS } from "./identifiers.js";
export { buildSummaryPrompt, serializeConversation, SUMMARY_SYSTEM_PROMPT, type SummaryPromptInput } from "./summary-prompt.js";
export { compactionEntry, compactionInput, type CompactionInput, type CompactionReason, type CompactionResult } from "./compaction-entry.js";
