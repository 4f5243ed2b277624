export { CHARS_PER_TOKEN, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS, estimateTokens } from "./estimate-tokens.js";
export { CONVERSATION_ROLES, groupConversationUnits, hasToolCalls, isConversationMessage } from "./conversation-units.js";
export { afterLatestCompaction, toHistoryItems, type HistorySource } from "./history-items.js";
export { COMPACTION_SUMMARY_PREFIX, compactionSummaryMessage } from "./compaction-summary.js";
export { shownText, shownTextParts } from "./shown-text.js";
