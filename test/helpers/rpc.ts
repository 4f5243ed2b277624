import { randomUUID } from "node:crypto";
import type { Frame, TestSocket } from "./ws-client.js";

/**
 * Request/response matching by id in O(1), for tests with hundreds of requests in flight.
 * `TestSocket.request` re-scans every frame received so far for every waiter on every new frame,
 * which turns a 500-message burst (thousands of `agent`/`chat` events) into billions of predicate
 * calls in the test process. This rides on the same socket and handshake; `sock.frames` still
 * records everything.
 */
export class Rpc {
  private readonly pending = new Map<string, { resolve: (f: Frame) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private readonly eventListeners = new Set<(f: Frame) => void>();

  constructor(readonly sock: TestSocket) {
    sock.ws.on("message", (data) => {
      let frame: Frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (frame.type === "res" && typeof frame.id === "string") {
        const waiter = this.pending.get(frame.id);
        // `agent` answers twice under one id (accepted, then final): the first one settles.
        if (waiter) {
          this.pending.delete(frame.id);
          clearTimeout(waiter.timer);
          waiter.resolve(frame);
        }
      } else if (frame.type === "event") {
        for (const listener of this.eventListeners) listener(frame);
      }
    });
    sock.ws.on("close", () => {
      for (const [id, waiter] of this.pending) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`socket closed before the response to ${id}`));
      }
      this.pending.clear();
    });
  }

  request(method: string, params?: unknown, timeoutMs = 10_000): Promise<Frame> {
    const id = randomUUID();
    return new Promise<Frame>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`timed out waiting for the response to ${method}`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.sock.send({ type: "req", id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  /** Calls `listener` with every event frame from now on; returns an unsubscribe function. */
  onEvent(listener: (f: Frame) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }
}
