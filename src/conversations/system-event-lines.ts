import type { OpenClawConfig } from "../config/index.js";
import { formatEventTimestamp } from "../agents/context/format-current-time.js";
import { userTimeZone } from "../agents/context/user-time-zone.js";
import type { SessionSystemEvent } from "../sessions/system-events/session-system-events.js";

/**
 * A message with the notices its session was waiting for in front of it: one
 * `System: [<when>] <notice>` line each (a notice's further lines as `System: <line>`), in the
 * user's time zone, then a blank line, then the message as it was.
 */
export function withSystemEventLines(text: string, events: readonly SessionSystemEvent[], config: OpenClawConfig): string {
  if (events.length === 0) return text;
  const zone = userTimeZone(config);
  const lines: string[] = [];
  for (const event of events) {
    const [first, ...rest] = event.text.split("\n");
    lines.push(`System: [${formatEventTimestamp(new Date(event.at), zone)}] ${first}`);
    for (const line of rest) lines.push(`System: ${line}`);
  }
  return `${lines.join("\n")}\n\n${text}`;
}
