import type { SessionStore } from "../../sessions/store/index.js";
import { invalidRequest } from "../protocol/errors.js";

/**
 * The session `agent`'s `sessionId` names (what `openclaw agent --session-id <id>` sends): the
 * session whose current transcript has that id, among the named agent's when `agentId` is set.
 * With a session already picked by `sessionKey` or `to`, that session's id must be this one. A
 * sessionId no session has is refused, never started as a new session under another key.
 */
export function sessionKeyOfSessionId(store: SessionStore, sessionId: string, picked: { sessionKey?: string; agentId?: string }): string {
  const id = sessionId.trim();
  if (!id) throw invalidRequest("sessionId is empty: name a session's sessionId (sessions.list shows it) or drop sessionId");
  if (picked.sessionKey !== undefined) {
    const current = store.get(picked.sessionKey)?.sessionId;
    if (current !== id)
      throw invalidRequest(
        `sessionId ${id} is not the current transcript of session ${picked.sessionKey} (${current ? `that is ${current}` : "it has none yet"}); drop sessionId or sessionKey/to`,
      );
    return picked.sessionKey;
  }
  const match = store.list(picked.agentId?.toLowerCase()).find((e) => e.sessionId === id);
  if (!match)
    throw invalidRequest(
      `sessionId: no session${picked.agentId ? ` of agent ${picked.agentId}` : ""} has sessionId ${id} (sessions.list shows each session's sessionId); name the session with sessionKey to start one`,
    );
  return match.sessionKey;
}
