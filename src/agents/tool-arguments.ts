import { Value } from "@sinclair/typebox/value";
import type { AgentTool } from "./types.js";

/** What is wrong with a call's arguments: where (a dotted path, or `fallbackWhere`) and what. */
export interface ArgumentProblem {
  where: string;
  problem: string;
}

/**
 * The first problem with `args` for `tool`, or undefined when they fit: the tool's own check when
 * it has one (a schema TypeBox does not hold, such as an MCP server's JSON Schema), else its
 * TypeBox `parameters`. The loop and a direct invocation both ask it before anything runs.
 */
export function argumentProblem(tool: AgentTool, args: unknown, fallbackWhere: string): ArgumentProblem | undefined {
  if (tool.checkArguments) return tool.checkArguments(args);
  if (Value.Check(tool.parameters, args)) return undefined;
  const first = Value.Errors(tool.parameters, args).First();
  return { where: first?.path ? first.path.replace(/^\//, "").replaceAll("/", ".") : fallbackWhere, problem: first?.message ?? "invalid" };
}
