import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionStatusParameters } from "./session-tool-params.js";

export function createSessionStatusTool(): AgentTool<typeof SessionStatusParameters> {
  return {
    name: "session_status",
    description: "A session's status: model, tokens, running or not, its sub-agents, and the exact current time.",
    parameters: SessionStatusParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.status(caller, args)),
  };
}
