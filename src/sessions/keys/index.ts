export { MAX_SESSION_KEY_LENGTH, SessionKeyError, normalizeSafeAgentId } from "./session-key-rules.js";
export {
  DEFAULT_MAIN_KEY,
  buildMainSessionKey,
  formatSessionKey,
  isCanonicalSessionKey,
  normalizeSessionKey,
  parseSessionKey,
  type NormalizeSessionKeyOptions,
  type ParsedSessionKey,
} from "./session-key.js";
export {
  DEFAULT_ACCOUNT_ID,
  buildChannelSessionKey,
  buildHttpStatelessSessionKey,
  isHttpStatelessSessionKey,
  isHttpApiSessionKey,
  buildOpenAiUserSessionKey,
  buildOpenResponsesUserSessionKey,
  type ChannelChatType,
  type ChannelSessionKeyParams,
  type DmScope,
  type GroupScope,
  type HttpApi,
} from "./channel-session-key.js";
export { buildSubagentSessionKey, isMainSessionKey, isSubagentSessionKey, subagentDepth } from "./subagent-session-key.js";
export { buildAcpSessionKey, isAcpSessionKey } from "./acp-session-key.js";
export { buildAcpBridgeSessionKey, isAcpBridgeSessionKey } from "./acp-bridge-session-key.js";
export { buildWebhookRunSessionKey, isWebhookRunSessionKey } from "./webhook-session-key.js";
export { buildCronRunSessionKey, isCronRunSessionKey } from "./cron-session-key.js";
