import type { ServerResponse } from "node:http";

/**
 * When the client went away before the response was complete. The response's `close` is the
 * reliable place: it fires when the socket drops, and after a normal finish (then
 * `writableFinished` is true and the client did not leave). The request's own `close` fires as
 * soon as the body has been read, so it cannot be used.
 */
function onClientLeaving(res: ServerResponse, left: () => void): void {
  res.once("close", () => {
    if (!res.writableFinished) left();
  });
}

/** An AbortSignal that fires when the client goes away: for work that takes a signal (fetch, embeddings). */
export function abortWhenClientLeaves(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  onClientLeaving(res, () => controller.abort(new Error("client disconnected")));
  return controller.signal;
}

/** Whether a request's client is still there, and a way to hear when it leaves. */
export interface ClientPresence {
  readonly left: boolean;
  /** Calls `listener` once when the client leaves (at once when it has); returns what stops listening. */
  onLeave(listener: () => void): () => void;
}

/**
 * The client's presence for a turn, which only needs to be told: lighter than an AbortSignal,
 * of which each one made costs microseconds on Node 20 (one more per `/v1` turn).
 */
export function clientPresence(res: ServerResponse): ClientPresence {
  let left = false;
  let listeners: (() => void)[] = [];
  onClientLeaving(res, () => {
    left = true;
    const told = listeners;
    listeners = [];
    for (const listener of told) listener();
  });
  return {
    get left() {
      return left;
    },
    onLeave(listener) {
      if (left) {
        listener();
        return () => {};
      }
      listeners.push(listener);
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
  };
}
