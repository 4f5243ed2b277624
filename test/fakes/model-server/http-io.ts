import type { IncomingMessage, ServerResponse } from "node:http";

/** Resolves after `ms`, or at once when the client has gone away (no timers left behind). */
export function pause(ms: number | undefined, res: ServerResponse): Promise<void> {
  if (!ms || ms <= 0 || isGone(res)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on("close", done);
  });
}

/** The client aborted or the socket died: nothing more can be written. */
export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || Boolean(res.socket?.destroyed);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (isGone(res)) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Writes SSE frames (or, with `contentType`, another stream's pieces) one by one with `chunkDelayMs` between them, flushing each so the client
 * really receives them separately. With `holdMidway`, the second half waits for that promise.
 * With `cutOff`, the socket is destroyed after the last
 * frame instead of ending the response: the client sees a body that breaks off.
 */
export async function writeSse(
  res: ServerResponse,
  frames: string[],
  options: { chunkDelayMs?: number; cutOff?: boolean; holdMidway?: Promise<void>; contentType?: string },
): Promise<void> {
  if (isGone(res)) return;
  res.writeHead(200, { "content-type": options.contentType ?? "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  for (const [i, frame] of frames.entries()) {
    if (i > 0) await pause(options.chunkDelayMs, res);
    if (options.holdMidway && i === Math.floor(frames.length / 2)) await options.holdMidway;
    if (isGone(res)) return;
    res.write(frame);
  }
  if (options.cutOff) {
    // Give the last frame a moment to leave before the connection dies.
    await pause(20, res);
    res.socket?.destroy();
    return;
  }
  res.end();
}

/** A JSON response whose body stops half-way: Content-Length promises more than arrives. */
export function writeTruncatedJson(res: ServerResponse, text: string): void {
  if (isGone(res)) return;
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) * 2 });
  res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
}

/**
 * Writes the response headers and `frames`, then holds the stream open, writing a keep-alive (an
 * SSE comment unless `stream` names another) every `keepAliveMs` when set, until the client goes away.
 */
export async function writeStalledSse(
  res: ServerResponse,
  frames: string[],
  keepAliveMs: number | undefined,
  stream: { contentType?: string; keepAlive?: string } = {},
): Promise<void> {
  if (isGone(res)) return;
  res.writeHead(200, { "content-type": stream.contentType ?? "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  for (const frame of frames) res.write(frame);
  await new Promise<void>((resolve) => {
    const keepAlive = stream.keepAlive ?? ": keep-alive\n\n";
    const timer = keepAliveMs ? setInterval(() => isGone(res) || res.write(keepAlive), keepAliveMs) : undefined;
    res.on("close", () => {
      clearInterval(timer);
      resolve();
    });
  });
}
