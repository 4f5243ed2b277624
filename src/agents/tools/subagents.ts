import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SubagentsParameters } from "./session-tool-params.js";

export function createSubagentsTool(): AgentTool<typeof SubagentsParameters> {
  return {
    name: "subagents",
    description: "List, kill, steer (redirect) or inspect (log, info) the sub-agents you spawned. Their results arrive on their own: do not list to wait.",
    parameters: SubagentsParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.subagents(caller, args)),
  };
}
