import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";

const SessionsSendParameters = Type.Object({
  sessionKey: Type.Optional(Type.String()),
  label: Type.Optional(Type.String()),
  agentId: Type.Optional(Type.String({ description: "That agent's main session." })),
  message: Type.String(),
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600, description: "0: return at once, the reply comes later as a message; > 0: wait for it." })),
});
export type SessionsSendArgs = Static<typeof SessionsSendParameters>;

export function createSessionsSendTool(): AgentTool<typeof SessionsSendParameters> {
  return {
    name: "sessions_send",
    description:
      "Message another session (by sessionKey, label or agentId). Not needed to answer a session that messaged you: your reply goes back on its own.",
    parameters: SessionsSendParameters,
    execute: (args, ctx, signal) => withSessionHost(ctx, (host, caller) => host.send(caller, args, signal)),
  };
}
