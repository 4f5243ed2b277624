import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionsListParameters } from "./session-tool-params.js";

export function createSessionsListTool(): AgentTool<typeof SessionsListParameters> {
  return {
    name: "sessions_list",
    description: "List the sessions you may see, most recent first: to find one to message or read.",
    parameters: SessionsListParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.list(caller, args)),
  };
}
