import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionsSpawnParameters } from "./session-tool-params.js";

export function createSessionsSpawnTool(): AgentTool<typeof SessionsSpawnParameters> {
  return {
    name: "sessions_spawn",
    description:
      "Start a sub-agent on a self-contained task in its own session. Returns at once; its result arrives later as a message " +
      "here (never poll for it). Use for parallel or context-heavy work, not for quick steps you can do yourself.",
    parameters: SessionsSpawnParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.spawn(caller, args)),
  };
}
