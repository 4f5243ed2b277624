import type { IncomingMessage } from "node:http";

/** How much of a refused body is read and thrown away so its client can read the answer. */
export interface DrainLimits {
  maxBytes: number;
  maxMs: number;
}

export const REFUSED_BODY_DRAIN: DrainLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 15_000 };

/**
 * Reads the rest of a request body and discards it, resolving when the body ended or a limit was
 * reached. A server that answers early and closes while its client still uploads makes the
 * client's next write fail (EPIPE, connection reset) before it reads the answer; draining first
 * lets it read the status. Nothing is kept, so memory stays flat whatever the client sends; a
 * body past the limits is cut off, and only then may its client miss the answer.
 */
export function drainRequestBody(req: IncomingMessage, limits: DrainLimits = REFUSED_BODY_DRAIN): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", finish);
      req.off("close", finish);
      req.off("error", finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) finish();
    };
    const timer = setTimeout(finish, limits.maxMs);
    req.on("data", onData);
    req.once("end", finish);
    req.once("close", finish);
    req.once("error", finish);
    req.resume();
  });
}
