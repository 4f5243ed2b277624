import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionsHistoryParameters } from "./session-tool-params.js";

export function createSessionsHistoryTool(): AgentTool<typeof SessionsHistoryParameters> {
  return {
    name: "sessions_history",
    description: "Read a session's recent messages (each cut to 4000 chars). Your sub-agents' results arrive on their own; do not read them to wait.",
    parameters: SessionsHistoryParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.history(caller, args)),
  };
}
