import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";

const SubagentsParameters = Type.Object({
  action: Type.Union([Type.Literal("list"), Type.Literal("kill"), Type.Literal("steer"), Type.Literal("log"), Type.Literal("info")]),
  target: Type.Optional(Type.String({ description: "#n from list, label, runId prefix or session key; kill also takes \"all\"." })),
  message: Type.Optional(Type.String({ description: "steer: new instructions (≤ 4000 chars)." })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: "log: messages (default 20)." })),
});
export type SubagentsArgs = Static<typeof SubagentsParameters>;

export function createSubagentsTool(): AgentTool<typeof SubagentsParameters> {
  return {
    name: "subagents",
    description: "List, kill, steer (redirect) or inspect (log, info) the sub-agents you spawned. Their results arrive on their own: do not list to wait.",
    parameters: SubagentsParameters,
    execute: (args, ctx) => withSessionHost(ctx, (host, caller) => host.subagents(caller, args)),
  };
}
