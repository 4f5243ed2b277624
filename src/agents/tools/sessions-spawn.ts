import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool } from "../types.js";
import { withSessionHost } from "./session-tool-host.js";

const Attachment = Type.Object({
  name: Type.String(),
  content: Type.String(),
  encoding: Type.Optional(Type.Union([Type.Literal("utf8"), Type.Literal("base64")])),
  mimeType: Type.Optional(Type.String()),
});

const SessionsSpawnParameters = Type.Object({
  task: Type.String({ description: "Self-contained: the sub-agent does not see this conversation." }),
  label: Type.Optional(Type.String()),
  agentId: Type.Optional(Type.String({ description: "Another allowed agent; default: yours." })),
  model: Type.Optional(Type.String({ description: "provider/model" })),
  thinking: Type.Optional(Type.String()),
  runTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  thread: Type.Optional(Type.Boolean({ description: "Open a thread for it in this chat (channels with threads): its replies go there and messages there reach it." })),
  mode: Type.Optional(Type.Union([Type.Literal("run"), Type.Literal("session")], { description: "session: stays for later steer messages." })),
  cleanup: Type.Optional(Type.Union([Type.Literal("delete"), Type.Literal("keep")])),
  sandbox: Type.Optional(Type.Union([Type.Literal("inherit"), Type.Literal("require")])),
  expectsCompletionMessage: Type.Optional(Type.Boolean({ description: "false: an empty result is not reported." })),
  attachments: Type.Optional(Type.Array(Attachment, { description: "Files for its workspace (≤ 50, 1 MB each)." })),
  attachMountPath: Type.Optional(Type.String()),
  runtime: Type.Optional(Type.Union([Type.Literal("subagent"), Type.Literal("acp")])),
});
export type SessionsSpawnArgs = Static<typeof SessionsSpawnParameters>;

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
