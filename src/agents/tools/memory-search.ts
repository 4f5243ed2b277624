import { Type, type Static } from "@sinclair/typebox";
import { MemoryUnavailableError } from "../../memory/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool } from "../types.js";

const MemorySearchParameters = Type.Object({
  query: Type.String({ description: "What to recall, in plain words (a question or keywords)." }),
  maxResults: Type.Optional(Type.Integer({ description: "At most this many results (default 6).", minimum: 1, maximum: 50 })),
  minScore: Type.Optional(Type.Number({ description: "Drop results scoring below this (0–1, default 0.35).", minimum: 0, maximum: 1 })),
});
export type MemorySearchArgs = Static<typeof MemorySearchParameters>;

export function createMemorySearchTool(): AgentTool<typeof MemorySearchParameters> {
  return {
    name: "memory_search",
    description:
      "Search your memory files (MEMORY.md, USER.md, memory/*.md) by meaning and keywords; returns paths, line ranges, scores and snippets. " +
      "Use before answering about prior work, decisions, dates, people, preferences or todos. Then load only the lines you need with memory_get. " +
      "Do not use for files outside memory: use read.",
    parameters: MemorySearchParameters,
    async execute(args, ctx) {
      const host = ctx.services.memory;
      if (!host) return toolError(TOOL_ERRORS.memoryOutsideGateway());
      try {
        const answer = await host.search(ctx.agentId, args.query, {
          ...(args.maxResults !== undefined ? { maxResults: args.maxResults } : {}),
          ...(args.minScore !== undefined ? { minScore: args.minScore } : {}),
        });
        const body = {
          results: answer.results,
          mode: answer.mode,
          ...(answer.updating ? { updating: true } : {}),
          ...(answer.warnings.length > 0 ? { warnings: answer.warnings } : {}),
          ...(answer.results.length === 0 ? { note: "No memory matched. Say that you checked." } : {}),
        };
        return toolText(JSON.stringify(body, null, 2), { count: answer.results.length, mode: answer.mode, updating: answer.updating });
      } catch (error) {
        if (error instanceof MemoryUnavailableError) {
          return toolError(TOOL_ERRORS.memoryUnavailable(error.message));
        }
        throw error;
      }
    },
  };
}
