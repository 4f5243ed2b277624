import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionsSearchParameters } from "./session-tool-params.js";

export function createSessionsSearchTool(): AgentTool<typeof SessionsSearchParameters> {
  return {
    name: "sessions_search",
    description:
      "Find exact words or phrases in the user and assistant messages of past sessions you may see (yours included); returns sessionKey, role, timestamp and a snippet per hit. " +
      "To read around a hit, call sessions_history with its sessionKey and offset: historyOffset (without includeTools): the hit is the newest message of that page. " +
      "For notes and facts kept in memory files, or recall by meaning rather than wording, use memory_search instead.",
    parameters: SessionsSearchParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.search(caller, args)),
  };
}
