import type { ModelStreamEvent } from "./types.js";
import type { AssistantTurn } from "./assistant-turn.js";
import type { ClassifiedModelError, ReadResult } from "./types.js";

/** Turns one SDK's stream items into our events; one per wire format. */
export interface StreamReader<T> {
  read(item: T): ReadResult;
  finish(): ModelStreamEvent;
}

/**
 * The part every provider shares once its SDK stream is open: translate items, stop at the
 * first failure, notice an abort the SDK ended quietly, and finish with the assembled message.
 */
export async function* pumpStream<T>(
  stream: AsyncIterable<T>,
  reader: StreamReader<T>,
  turn: AssistantTurn,
  signal: AbortSignal,
  classifyAbort: () => ClassifiedModelError,
  onItem: (item: T) => void = () => {},
): AsyncGenerator<ModelStreamEvent> {
  for await (const item of stream) {
    onItem(item);
    const { events, failure } = reader.read(item);
    yield* events;
    // Leaving the loop early closes the SDK stream, which aborts the HTTP request.
    if (failure) {
      yield turn.fail(failure);
      return;
    }
  }
  // The SDKs end the iteration quietly when the request is aborted mid-body.
  if (signal.aborted) {
    yield turn.fail(classifyAbort());
    return;
  }
  yield reader.finish();
}
