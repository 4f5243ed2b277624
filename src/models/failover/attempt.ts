import type { ModelRequest, ModelStreamEvent, StreamModelFn } from "../types.js";

type ErrorEvent = Extract<ModelStreamEvent, { type: "error" }>;

/**
 * How one attempt ended. `failed` means nothing of it reached the consumer, so another key or
 * model may answer instead; `failedAfterOutput` means text, thinking or a tool call was already
 * passed on, and a second answer would duplicate what the user saw.
 */
export type AttemptOutcome =
  | { kind: "done"; event: Extract<ModelStreamEvent, { type: "done" }> }
  | { kind: "failed"; error: ErrorEvent }
  | { kind: "failedAfterOutput"; error: ErrorEvent };

const OUTPUT: ReadonlySet<ModelStreamEvent["type"]> = new Set(["text_delta", "thinking_delta", "toolcall"]);

/**
 * Streams one attempt through to the consumer, all but its terminal event. Events before the
 * first output (usage counters) are held back until output starts, so a failed attempt leaves no
 * trace; from the first output on, every event is passed on as it comes.
 */
export async function* streamAttempt(stream: StreamModelFn, request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, AttemptOutcome> {
  const held: ModelStreamEvent[] = [];
  let started = false;
  try {
    for await (const event of stream(request, signal)) {
      if (event.type === "error") return started ? { kind: "failedAfterOutput", error: event } : { kind: "failed", error: event };
      if (!started && OUTPUT.has(event.type)) {
        started = true;
        yield* held;
        held.length = 0;
      }
      // The terminal event is the caller's to pass on, after its bookkeeping: a consumer stops
      // reading at `done`, and nothing after that yield would run.
      if (event.type === "done") {
        yield* held;
        return { kind: "done", event };
      }
      if (started) yield event;
      else held.push(event);
    }
  } catch (err) {
    // The provider contract says streams do not throw; one that does is a failed attempt all the same.
    const message = String((err as Error)?.message ?? err);
    const error: ErrorEvent = {
      type: "error",
      kind: "unknown",
      error: message,
      retryable: false,
      message: { role: "assistant", content: [], provider: request.model.provider, model: request.model.id, stopReason: "error", errorMessage: message, timestamp: Date.now() },
    };
    return started ? { kind: "failedAfterOutput", error } : { kind: "failed", error };
  }
  const message = "model stream ended without a result";
  const error: ErrorEvent = {
    type: "error",
    kind: "malformed",
    error: message,
    retryable: true,
    message: { role: "assistant", content: [], provider: request.model.provider, model: request.model.id, stopReason: "error", errorMessage: message, timestamp: Date.now() },
  };
  return started ? { kind: "failedAfterOutput", error } : { kind: "failed", error };
}
