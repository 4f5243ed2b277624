import { Type, type Static } from "@sinclair/typebox";
import { MEMORY_GET_DEFAULT_LINES, MEMORY_GET_MAX_CHARS } from "../../memory/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ToolResult } from "../types.js";
import type { MemoryGetOutcome } from "../../memory/index.js";
import { withThousandsCommas } from "../../infra/thousands.js";

const MemoryGetParameters = Type.Object({
  path: Type.String({ description: "A memory file, as memory_search returned it (e.g. memory/2026-11-30.md)." }),
  from: Type.Optional(Type.Integer({ description: "First line, 1-based (default 1).", minimum: 1 })),
  lines: Type.Optional(Type.Integer({ description: `How many lines (default ${MEMORY_GET_DEFAULT_LINES}).`, minimum: 1 })),
});
export type MemoryGetArgs = Static<typeof MemoryGetParameters>;

export function createMemoryGetTool(): AgentTool<typeof MemoryGetParameters> {
  return {
    name: "memory_get",
    description:
      `Read lines of a memory file (MEMORY.md, USER.md, memory/*.md), at most ${withThousandsCommas(MEMORY_GET_MAX_CHARS)} characters unless configured otherwise. ` +
      "Use after memory_search to load the lines around a result. Do not use for other files: use read.",
    parameters: MemoryGetParameters,
    async execute(args, ctx) {
      const host = ctx.services.memory;
      if (!host) return toolError(TOOL_ERRORS.memoryOutsideGateway());
      const outcome = await host.get(ctx.agentId, args.path, args.from, args.lines, ctx.memoryGetMaxChars);
      if (!outcome.ok) return refusal(outcome, args.path);
      const { result } = outcome;
      const footer = result.truncated ? `\n\n[Lines ${result.from}-${result.to} of ${result.totalLines}. Use from=${result.to + 1} to continue.]` : "";
      return toolText((result.text || "(the file is empty)") + footer, {
        path: result.path,
        from: result.from,
        to: result.to,
        totalLines: result.totalLines,
        truncated: result.truncated,
      });
    },
  };
}

function refusal(outcome: Exclude<MemoryGetOutcome, { ok: true }>, requested: string): ToolResult {
  switch (outcome.refusal) {
    case "not-found":
      return toolError(TOOL_ERRORS.memoryFileNotFound(requested));
    case "not-a-memory-file":
      return toolError(TOOL_ERRORS.notAMemoryFile(requested));
    case "unreadable":
      return toolError(TOOL_ERRORS.memoryFileUnreadable(requested, outcome.reason));
    case "offset-out-of-range":
      return toolError(TOOL_ERRORS.memoryOffsetOutOfRange(outcome.from, requested, outcome.totalLines));
  }
}
