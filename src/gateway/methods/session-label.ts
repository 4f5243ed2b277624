import { parseSessionKey } from "../../sessions/keys/index.js";
import type { SessionEntry, SessionStore } from "../../sessions/store/index.js";
import { invalidRequest } from "../protocol/errors.js";

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: a label is one line of text.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A label as the caller sent it → the label to store: trimmed, and undefined (no label) when
 * nothing is left, as OpenClaw reads it. A control character is refused, naming its code point.
 */
export function parseLabel(raw: string): string | undefined {
  const label = raw.trim();
  const control = CONTROL_CHARACTER.exec(label);
  if (control) {
    const code = `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    throw invalidRequest(`label has a control character (${code} at position ${control.index}); a label is one line of printable text`);
  }
  return label === "" ? undefined : label;
}

/** A label names one session of an agent (sessions.resolve finds it by label): another session's label is refused. */
export function assertLabelFree(entries: readonly SessionEntry[], label: string, sessionKey: string): void {
  const holder = entries.find((e) => e.label === label && e.sessionKey !== sessionKey);
  if (holder) throw invalidRequest(`label "${label}" is already used by session ${holder.sessionKey}`);
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
