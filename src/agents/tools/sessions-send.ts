import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";
import { SessionsSendParameters } from "./session-tool-params.js";

export function createSessionsSendTool(): AgentTool<typeof SessionsSendParameters> {
  return {
    name: "sessions_send",
    description: "Message another session (by sessionKey, label or agentId). Not needed to answer a session that messaged you: your reply goes back on its own.",
    parameters: SessionsSendParameters,
    execute: (args, ctx, signal) => withSessionHost(ctx, (host, caller) => host.send(caller, args, signal)),
  };
}
