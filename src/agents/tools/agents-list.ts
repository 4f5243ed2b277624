import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { AgentsListParameters } from "./session-tool-params.js";

export function createAgentsListTool(): AgentTool<typeof AgentsListParameters> {
  return {
    name: "agents_list",
    description: "List the agent ids you may give sessions_spawn as agentId, with each agent's name and the model its sub-agent would run on.",
    parameters: AgentsListParameters,
    execute: (_args, ctx) => withSessionHost(ctx, (host, caller) => host.agents(caller)),
  };
}
