import type { AfterToolCallOutcome, ToolCallBlock, ToolHooks, ToolResult } from "../types.js";
import { resolveLoopDetectorOptions, type LoopDetectorOptions } from "./loop-detector-options.js";
import { observe } from "./observation.js";
import { PingPongRule } from "./ping-pong-rule.js";
import { ReadRule } from "./read-rule.js";
import { RepeatRule } from "./repeat-rule.js";

/**
 * Tool-loop detection as an `afterToolCall` hook: it sees each finished call with its result
 * and may add a reminder for the model or end the run (the loop then ends with stop reason
 * "loop" and this message as the error). Rules: the same call repeated back to back with the
 * same result; the same unchanged file read too often; two calls alternating with unchanged
 * results. The result is passed through untouched.
 *
 * State lives in the returned hooks: create one detector per run, as OpenClaw counts within
 * the current run only (a new message from the user is a fresh start).
 */
export function createLoopDetector(options?: LoopDetectorOptions): ToolHooks {
  const resolved = resolveLoopDetectorOptions(options);
  const rules = [new RepeatRule(resolved), new ReadRule(resolved), new PingPongRule(resolved)];
  return {
    afterToolCall(call: ToolCallBlock, result: ToolResult): AfterToolCallOutcome {
      const observation = observe(call, result);
      // Every rule sees every call, even once one has fired, so their counts stay right.
      const verdicts = rules.map((rule) => rule.observe(observation));
      const stop = verdicts.find((v) => v?.stop)?.stop;
      if (stop) return { result, stop };
      const reminders = verdicts.flatMap((v) => (v?.reminder ? [v.reminder] : []));
      return reminders.length > 0 ? { result, reminder: reminders.join("\n\n") } : { result };
    },
  };
}
