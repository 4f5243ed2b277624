import type { ConversationPort, SessionChangeDetail } from "../agents/conversation-port.js";
import type { OpenClawConfig } from "../config/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import { sessionRow } from "./methods/session-row.js";

/** Connections that asked for `sessions.changed` (`sessions.subscribe`), and the way to tell them. */
export interface SessionEvents {
  readonly subscribers: Set<string>;
  changed(sessionKey: string, reason: string, detail?: SessionChangeDetail): void;
}

/**
 * The `sessions.changed` payload: the key (also as `sessionKey`, which OpenClaw clients match on),
 * the reason, and the session's current row — tokens, cost, `activeRunIds` (empty: nothing runs
 * any more) — unless it was deleted. A turn's end also names its last run (`runId`, `phase`).
 */
export function sessionChangedPayload(
  sessionKey: string,
  reason: string,
  detail: SessionChangeDetail | undefined,
  deps: { sessions: SessionStore; conversations: ConversationPort; config: OpenClawConfig },
): Record<string, unknown> {
  const entry = reason === "delete" ? undefined : deps.sessions.get(sessionKey);
  const runId = detail?.runIds?.at(-1);
  return {
    // OpenClaw's: every change says the session's goal (the row's), null for none (a reset or delete ends it).
    goal: null,
    ...(entry ? sessionRow(entry, deps.conversations, deps.config) : {}),
    key: sessionKey,
    sessionKey,
    ...(sessionKey.startsWith("agent:") ? { agentId: sessionKey.split(":")[1] } : {}),
    reason,
    ...(runId ? { runId } : {}),
    ts: Date.now(),
  };
}
