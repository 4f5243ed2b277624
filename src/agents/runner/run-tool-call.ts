import { argumentProblem } from "../tool-arguments.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError } from "../tool-result.js";
import type { AgentTool, ToolCallBlock, ToolContext, ToolHooks, ToolResult } from "../types.js";

export interface ToolCallOutcome {
  result: ToolResult;
  /** Set when a hook asked to end the run. */
  stop?: string;
}

/**
 * One tool call through the hooks: before (may block or stop), argument validation, execute
 * (a throw becomes a structured error, never a crashed run), after (may rewrite, remind, stop).
 */
export async function runToolCall(
  call: ToolCallBlock,
  tools: ReadonlyMap<string, AgentTool>,
  hooks: readonly ToolHooks[],
  ctx: ToolContext,
  signal: AbortSignal,
  onUpdate: (partial: ToolResult) => void,
): Promise<ToolCallOutcome> {
  for (const hook of hooks) {
    const decision = (await hook.beforeToolCall?.(call)) ?? { action: "run" as const };
    if (decision.action === "stop") return { result: toolError(TOOL_ERRORS.runStopped(decision.reason)), stop: decision.reason };
    if (decision.action === "block") {
      return { result: toolError(TOOL_ERRORS.toolBlocked(decision.reason)) };
    }
  }
  let result = await execute(call, tools, ctx, signal, onUpdate);
  const reminders: string[] = [];
  for (const hook of hooks) {
    const outcome = await hook.afterToolCall?.(call, result);
    if (!outcome) continue;
    result = outcome.result;
    if (outcome.reminder) reminders.push(outcome.reminder);
    if (outcome.stop) return { result: withReminders(result, reminders), stop: outcome.stop };
  }
  return { result: withReminders(result, reminders) };
}

async function execute(
  call: ToolCallBlock,
  tools: ReadonlyMap<string, AgentTool>,
  ctx: ToolContext,
  signal: AbortSignal,
  onUpdate: (partial: ToolResult) => void,
): Promise<ToolResult> {
  const tool = tools.get(call.name);
  if (!tool) {
    return toolError(TOOL_ERRORS.unknownTool(call.name, [...tools.keys()].join(", ")));
  }
  if (call.argumentsError) return toolError(TOOL_ERRORS.argumentsUnreadable(call.name, call.argumentsError));
  const invalid = argumentProblem(tool, call.arguments, "arguments");
  if (invalid) return toolError(TOOL_ERRORS.argumentsInvalid(invalid.where, invalid.problem));
  try {
    return await tool.execute(call.arguments as never, ctx, signal, onUpdate);
  } catch (err) {
    if (signal.aborted) return toolError(TOOL_ERRORS.abortedWhileRunning());
    return toolError(TOOL_ERRORS.toolFailed(call.name, (err as Error).message));
  }
}

function withReminders(result: ToolResult, reminders: string[]): ToolResult {
  if (reminders.length === 0) return result;
  return { ...result, content: [...result.content, { type: "text", text: reminders.join("\n") }] };
}
