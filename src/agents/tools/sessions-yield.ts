import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionsYieldParameters } from "./session-tool-params.js";

export function createSessionsYieldTool(): AgentTool<typeof SessionsYieldParameters> {
  return {
    name: "sessions_yield",
    description:
      "End this turn now to wait for the sub-agents you spawned: their results arrive as the next messages here. Text you write " +
      "with this call is your answer for now. Only works while a sub-agent of this session is still running or reporting.",
    parameters: SessionsYieldParameters,
    endsRun: true,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.yieldTurn(caller, args)),
  };
}
