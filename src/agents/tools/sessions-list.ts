import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";

const SessionsListParameters = Type.Object({
  kinds: Type.Optional(Type.Array(Type.Union([Type.Literal("main"), Type.Literal("group"), Type.Literal("subagent"), Type.Literal("other")]))),
  label: Type.Optional(Type.String()),
  agentId: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ description: "In key or label." })),
  activeMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  messageLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: "Last N messages of each." })),
});
export type SessionsListArgs = Static<typeof SessionsListParameters>;

export function createSessionsListTool(): AgentTool<typeof SessionsListParameters> {
  return {
    name: "sessions_list",
    description: "List the sessions you may see, most recent first: to find one to message or read.",
    parameters: SessionsListParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.list(caller, args)),
  };
}
