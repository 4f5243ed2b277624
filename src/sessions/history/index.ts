export { CHARS_PER_TOKEN, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS, estimateTokens } from "./estimate-tokens.js";
export { CONVERSATION_ROLES, groupConversationUnits, hasToolCalls, isConversationMessage } from "./conversation-units.js";
export { type HistorySource } from "./history-items.js";
export { COMPACTION_SUMMARY_PREFIX, loadHistory, selectHistory, type HistoryWindow, type LoadHistoryOptions } from "./load-history.js";
