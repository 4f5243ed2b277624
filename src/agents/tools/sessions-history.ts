import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";

const SessionsHistoryParameters = Type.Object({
  sessionKey: Type.String(),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: "Page back with nextOffset." })),
  includeTools: Type.Optional(Type.Boolean()),
});
export type SessionsHistoryArgs = Static<typeof SessionsHistoryParameters>;

export function createSessionsHistoryTool(): AgentTool<typeof SessionsHistoryParameters> {
  return {
    name: "sessions_history",
    description: "Read a session's recent messages (each cut to 4000 chars). Your sub-agents' results arrive on their own; do not read them to wait.",
    parameters: SessionsHistoryParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.history(caller, args)),
  };
}
