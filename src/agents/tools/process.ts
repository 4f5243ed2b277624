import { Type, type Static } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ToolResult } from "../types.js";
import type { ProcessOwner } from "./process-registry.js";
import type { ProcessSession } from "./process-session.js";

/** OpenClaw's `process log` default window: the last 200 lines. */
export const PROCESS_LOG_DEFAULT_LINES = 200;
const LIST_COMMAND_CHARS = 120;

const ProcessParameters = Type.Object({
  action: Type.Union([Type.Literal("list"), Type.Literal("poll"), Type.Literal("log"), Type.Literal("kill")], {
    description: "list: the sessions this conversation started; poll: new output + status; log: output lines; kill: stop the session.",
  }),
  sessionId: Type.Optional(Type.String({ description: "The sessionId exec returned (not needed for list)." })),
  offset: Type.Optional(Type.Integer({ description: "log: first line to show, 1-based (default: the last 200 lines).", minimum: 1 })),
  limit: Type.Optional(Type.Integer({ description: "log: number of lines (default 200).", minimum: 1 })),
});
export type ProcessArgs = Static<typeof ProcessParameters>;

export function createProcessTool(): AgentTool<typeof ProcessParameters> {
  return {
    name: "process",
    description:
      "Follow commands that exec moved to the background: list sessions, poll for new output and exit status, " +
      "read the output log, or kill one. Use after exec returned a sessionId. Do not use to start commands: use exec.",
    parameters: ProcessParameters,
    ownerOnly: true,
    async execute(args, ctx) {
      const registry = ctx.services.processes;
      if (!registry) {
        return toolError(TOOL_ERRORS.processUnavailable());
      }
      if (args.action === "list") {
        const sessions = registry.list(ownerOf(ctx));
        if (sessions.length === 0) return toolText("No background sessions.", { sessions: [] });
        const lines = sessions.map((session) => `${session.id}  ${session.describeStatus()}  $ ${shortCommand(session.command)}`);
        return toolText(lines.join("\n"), { sessions: sessions.map((session) => session.summary()) });
      }

      if (!args.sessionId) {
        return toolError(TOOL_ERRORS.processNeedsSessionId(String(args.action)));
      }
      const session = registry.get(args.sessionId, ownerOf(ctx));
      if (!session) {
        return toolError(TOOL_ERRORS.processSessionNotFound(args.sessionId));
      }

      switch (args.action) {
        case "poll":
          return pollSession(session);
        case "log":
          return logSession(session, args.offset, args.limit);
        case "kill":
          return killSession(session);
        default:
          return toolError(TOOL_ERRORS.processUnknownAction(String(args.action)));
      }
    },
  };
}

function ownerOf(ctx: { agentId: string; sessionKey?: string }): ProcessOwner {
  return { agentId: ctx.agentId, ...(ctx.sessionKey ? { sessionKey: ctx.sessionKey } : {}) };
}

function pollSession(session: ProcessSession): ToolResult {
  const { text, droppedChars } = session.takeNewOutput();
  const body = text.length > 0 ? text : "(no new output)";
  return toolText(`${body}\n\n[${session.describeStatus()}]`, {
    ...session.summary(),
    newOutputChars: text.length,
    droppedChars,
  });
}

function logSession(session: ProcessSession, offset: number | undefined, limit: number | undefined): ToolResult {
  const output = session.output.text();
  const lines = output.length === 0 ? [] : output.replace(/\n$/, "").split("\n");
  const count = Math.max(1, Math.floor(limit ?? PROCESS_LOG_DEFAULT_LINES));
  const start = offset === undefined ? Math.max(0, lines.length - count) : Math.max(0, Math.floor(offset) - 1);
  const window = lines.slice(start, start + count);
  const range = window.length > 0 ? `lines ${start + 1}-${start + window.length} of ${lines.length}` : `no lines (the log has ${lines.length})`;
  const body = window.length > 0 ? window.join("\n") : "(no output in this range)";
  return toolText(`${body}\n\n[${range}; ${session.describeStatus()}]`, {
    ...session.summary(),
    totalLines: lines.length,
    fromLine: start + 1,
    lineCount: window.length,
  });
}

async function killSession(session: ProcessSession): Promise<ToolResult> {
  if (!session.running) {
    return toolText(`Session ${session.id} had already ${session.describeStatus()}; nothing to kill.`, session.summary());
  }
  session.kill("killed");
  // Most programs die on SIGTERM at once; report the final state when it comes quickly.
  await Promise.race([session.finished, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
  const state = session.running ? "was sent SIGTERM (SIGKILL follows in 2 s if it is still alive)" : session.describeStatus();
  return toolText(`Session ${session.id} ${state}.`, session.summary());
}

function shortCommand(command: string): string {
  const oneLine = command.replace(/\s+/g, " ").trim();
  return oneLine.length > LIST_COMMAND_CHARS ? `${oneLine.slice(0, LIST_COMMAND_CHARS)}…` : oneLine;
}
