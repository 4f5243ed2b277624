import { isSubagentSessionKey } from "../sessions/keys/index.js";
import type { TraceSource } from "../traces/index.js";

/**
 * Where a run came from, for its trace: sub-agent and cron sessions by their key, otherwise by how
 * the message arrived (`SubmitInput.method`); runtime messages (announcements) are `internal`.
 */
export function traceSource(method: string | undefined, sessionKey: string, runtime: boolean): TraceSource {
  if (isSubagentSessionKey(sessionKey)) return "subagent";
  if (method === "cron" || sessionKey.includes(":cron:")) return "cron";
  if (runtime) return "internal";
  if (method === "channel") return "channel";
  if (method === "http") return "http";
  return "chat";
}
