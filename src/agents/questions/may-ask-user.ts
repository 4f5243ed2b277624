import { isAcpBridgeSessionKey, isAcpSessionKey, isCronRunSessionKey, isHttpApiSessionKey, isSubagentSessionKey, isWebhookRunSessionKey } from "../../sessions/keys/index.js";

/**
 * Whether a run in this session may ask the user (`ask_user`): a conversation's own runs may, as
 * OpenClaw offers the tool in the main session only. A sub-agent, an ACP session, a cron job's or
 * a webhook's own run, and a session of the OpenAI-compatible HTTP APIs (a program waits on the
 * completion there) have nobody in the conversation to answer.
 */
export function mayAskUser(sessionKey: string | undefined, spawnDepth: number | undefined): boolean {
  if (!sessionKey || (spawnDepth ?? 0) > 0) return false;
  return ![isSubagentSessionKey, isAcpSessionKey, isAcpBridgeSessionKey, isCronRunSessionKey, isWebhookRunSessionKey, isHttpApiSessionKey].some((test) => test(sessionKey));
}
