import { normalizeToolName } from "../policy/tool-names.js";
import type { ToolCallBlock, ToolResult } from "../types.js";
import { callSignature, resultFingerprint } from "./call-fingerprint.js";

/** One finished tool call, reduced to what the loop rules compare. */
export interface Observation {
  call: ToolCallBlock;
  result: ToolResult;
  /** The tool name as the model wrote it, for messages. */
  tool: string;
  signature: string;
  outcome: string;
  /** Waiting on a background process: allowed to repeat longer than other calls. */
  isPoll: boolean;
}

/** What a rule wants done after a call: nothing, a reminder, or ending the run. */
export interface LoopVerdict {
  reminder?: string;
  stop?: string;
}

export function observe(call: ToolCallBlock, result: ToolResult): Observation {
  return {
    call,
    result,
    tool: call.name,
    signature: callSignature(call),
    outcome: resultFingerprint(result),
    isPoll: normalizeToolName(call.name) === "process" && (call.arguments.action === "poll" || call.arguments.action === "log"),
  };
}
