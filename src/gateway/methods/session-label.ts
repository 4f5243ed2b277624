import type { SessionEntry } from "../../sessions/store/index.js";
import { invalidRequest } from "../protocol/errors.js";

/** A label names one session of an agent (sessions.resolve finds it by label): another session's label is refused. */
export function assertLabelFree(entries: readonly SessionEntry[], label: string, sessionKey: string): void {
  const holder = entries.find((e) => e.label === label && e.sessionKey !== sessionKey);
  if (holder) throw invalidRequest(`label "${label}" is already used by session ${holder.sessionKey}`);
}
