import type { AgentEvent, AssistantMessage, ModelErrorKind, ModelRequest, StreamModelFn, Usage } from "../types.js";

export interface TurnOutcome {
  message: AssistantMessage;
  error?: { kind: ModelErrorKind; message: string };
}

/**
 * Consume one model stream into an assistant message, emitting message_start/update/end as it
 * goes. The provider contract says streams do not throw; a throw anyway becomes an error outcome.
 */
export async function streamAssistantTurn(streamModel: StreamModelFn, request: ModelRequest, signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<TurnOutcome> {
  const partial: AssistantMessage = {
    role: "assistant",
    content: [],
    provider: request.model.provider,
    model: request.model.id,
    timestamp: Date.now(),
  };
  emit({ type: "message_start", message: partial });
  let outcome: TurnOutcome | undefined;
  try {
    for await (const event of streamModel(request, signal)) {
      switch (event.type) {
        case "text_delta":
          appendText(partial, "text", event.delta);
          emit({ type: "message_update", message: partial, delta: { kind: "text", text: event.delta } });
          break;
        case "thinking_delta":
          appendText(partial, "thinking", event.delta);
          emit({ type: "message_update", message: partial, delta: { kind: "thinking", text: event.delta } });
          break;
        case "usage":
          partial.usage = event.usage;
          break;
        case "toolcall":
          break; // the final message carries the calls in order
        case "done":
          outcome = { message: { ...event.message, timestamp: partial.timestamp } };
          break;
        case "error":
          outcome = {
            message: { ...event.message, stopReason: event.kind === "aborted" ? "aborted" : "error", errorMessage: event.error, timestamp: partial.timestamp },
            error: { kind: event.kind, message: event.error },
          };
          break;
      }
      if (outcome) break;
    }
  } catch (err) {
    outcome = {
      message: { ...partial, stopReason: "error", errorMessage: String((err as Error)?.message ?? err) },
      error: { kind: "unknown", message: String((err as Error)?.message ?? err) },
    };
  }
  outcome ??= {
    message: { ...partial, stopReason: "error", errorMessage: "model stream ended without a result" },
    error: { kind: "malformed", message: "model stream ended without a result" },
  };
  emit({ type: "message_end", message: outcome.message });
  return outcome;
}

function appendText(message: AssistantMessage, kind: "text" | "thinking", delta: string): void {
  const last = message.content[message.content.length - 1];
  if (kind === "text" && last?.type === "text") last.text += delta;
  else if (kind === "thinking" && last?.type === "thinking") last.thinking += delta;
  else message.content.push(kind === "text" ? { type: "text", text: delta } : { type: "thinking", thinking: delta });
}

export function addUsage(total: Usage, usage: Usage | undefined): void {
  if (!usage) return;
  total.input += usage.input;
  total.output += usage.output;
  total.cacheRead += usage.cacheRead;
  total.cacheWrite += usage.cacheWrite;
}
