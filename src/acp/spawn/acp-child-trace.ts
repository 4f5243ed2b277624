import { randomUUID } from "node:crypto";
import type { AcpChildRunResult } from "../../agents/subagents/index.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import type { RunTracer } from "../../traces/index.js";
import type { AcpRuntimeEvent } from "../runtime/types.js";

/**
 * One ACP child turn as a trace (source `acp`): the agent's reply and thoughts, its tool calls
 * by their updates, its usage and outcome. Undefined when tracing is off.
 */
export function traceAcpTurn(tracer: RunTracer | undefined, sessionKey: string, text: string) {
  const handle = tracer?.begin({ runId: `acp-${randomUUID()}`, sessionKey, agentId: parseSessionKey(sessionKey).agentId, source: "acp", input: text });
  if (!handle) return undefined;
  return {
    event(event: AcpRuntimeEvent): void {
      if (event.type === "text_delta") handle.external({ type: "text", text: event.text, ...(event.stream === "thought" ? { thought: true } : {}) });
      else if (event.type === "tool_call") {
        handle.external({
          type: "tool",
          text: event.text,
          ...(event.toolCallId ? { toolCallId: event.toolCallId } : {}),
          ...(event.title ? { title: event.title } : {}),
          ...(event.status ? { status: event.status } : {}),
        });
      }
    },
    end(result: AcpChildRunResult): void {
      handle.end({
        outcome: result.status,
        result: {
          payloads: result.text ? [{ text: result.text }] : [],
          usage: { input: result.usage?.input ?? 0, output: result.usage?.output ?? 0, cacheRead: 0, cacheWrite: 0 },
          stopReason: result.status === "ok" ? "stop" : result.status === "error" ? "error" : result.status,
          ...(result.error ? { error: { kind: "unknown" as const, message: result.error } } : {}),
        },
      });
    },
  };
}
