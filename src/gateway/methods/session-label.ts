import { parseSessionKey } from "../../sessions/keys/index.js";
import type { SessionEntry, SessionStore } from "../../sessions/store/index.js";
import { labelTakenBy, readLabel } from "../../sessions/session-label-rules.js";
import { invalidRequest } from "../protocol/errors.js";

/** readLabel, with its problem as the request's error. */
export function parseLabel(raw: string): string | undefined {
  const read = readLabel(raw);
  if (!read.ok) throw invalidRequest(read.problem);
  return read.label;
}

/** A label another session of the agent holds is refused. */
export function assertLabelFree(entries: readonly SessionEntry[], label: string, sessionKey: string): void {
  const taken = labelTakenBy(entries, label, sessionKey);
  if (taken) throw invalidRequest(taken);
}

/** `agent` with `label`: refused before anything runs when another session of the agent holds the label. */
export function assertSessionLabelFree(sessions: SessionStore, sessionKey: string, label: string): void {
  assertLabelFree(sessions.list(parseSessionKey(sessionKey).agentId), label, sessionKey);
}

/**
 * `agent` with `label`, once its message is accepted: the session (created if new) takes the
 * label; a label another session of the agent holds is refused, and nothing changes.
 */
export function setSessionLabel(sessions: SessionStore, sessionKey: string, label: string): void {
  const agentId = parseSessionKey(sessionKey).agentId;
  assertLabelFree(sessions.list(agentId), label, sessionKey);
  const entry = sessions.ensure(sessionKey, { agentId });
  if (entry.label !== label) sessions.patch(sessionKey, { label });
}
