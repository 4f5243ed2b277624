import type { ServerResponse } from "node:http";

/**
 * An AbortSignal that fires when the client goes away before the response is complete. The
 * response's `close` is the reliable place: it fires when the socket drops, and after a normal
 * finish (then `writableFinished` is true and nothing is aborted). The request's own `close`
 * fires as soon as the body has been read, so it cannot be used.
 */
export function abortWhenClientLeaves(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort(new Error("client disconnected"));
  });
  return controller.signal;
}
