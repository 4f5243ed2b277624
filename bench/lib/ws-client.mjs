// Minimal gateway protocol client for the bench: challenge → connect → hello-ok, one-shot RPCs, close.
import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import { now, StepError } from "./util.mjs";

export function connectParams(token) {
  return {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: "cli", version: "bench", platform: "linux", mode: "cli" },
    role: "operator",
    auth: { token },
  };
}

/**
 * Open a socket and complete the handshake. Resolves with `{ ws, helloMs }`, where helloMs runs
 * from `new WebSocket()` to the hello-ok response; rejects (and terminates the socket) otherwise.
 */
export function connectHello(url, token, { timeoutMs = 5000, step = "connect" } = {}) {
  return new Promise((resolve, reject) => {
    const requestId = randomUUID();
    const startedAt = now();
    const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
    let settled = false;
    const timer = setTimeout(() => fail(`no hello-ok within ${timeoutMs} ms`), timeoutMs);

    function fail(message) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.off("message", onMessage);
      ws.terminate();
      reject(new StepError(step, message));
    }

    function onMessage(data) {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return fail("non-JSON frame during handshake");
      }
      if (frame.type === "event" && frame.event === "connect.challenge") {
        ws.send(JSON.stringify({ type: "req", id: requestId, method: "connect", params: connectParams(token) }));
        return;
      }
      if (frame.type !== "res" || frame.id !== requestId) return;
      if (!frame.ok || frame.payload?.type !== "hello-ok") {
        return fail(`connect rejected: ${JSON.stringify(frame.error ?? frame.payload).slice(0, 300)}`);
      }
      const helloMs = now() - startedAt;
      settled = true;
      clearTimeout(timer);
      ws.off("message", onMessage);
      resolve({ ws, helloMs });
    }

    ws.on("message", onMessage);
    // Kept for the socket's whole life: an 'error' without a listener would crash the bench.
    ws.on("error", (err) => fail(`socket error: ${err.message}`));
    ws.on("close", (code, reason) => fail(`closed before hello-ok (code ${code}${reason.length ? ` ${reason}` : ""})`));
  });
}

/** One request/response over an authenticated socket. Resolves with `{ payload, ms }`. */
export function rpc(ws, method, params = {}, { timeoutMs = 5000, step = method } = {}) {
  return new Promise((resolve, reject) => {
    const id = randomUUID();
    const sentAt = now();
    const cleanup = () => {
      clearTimeout(timer);
      ws.off("message", onMessage);
      ws.off("close", onClose);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new StepError(step, `no response to ${method} within ${timeoutMs} ms`));
    }, timeoutMs);
    function onMessage(data) {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (frame.type !== "res" || frame.id !== id) return;
      cleanup();
      if (frame.ok) resolve({ payload: frame.payload, ms: now() - sentAt });
      else reject(new StepError(step, `${method} failed: ${JSON.stringify(frame.error).slice(0, 300)}`));
    }
    function onClose(code) {
      cleanup();
      reject(new StepError(step, `socket closed (code ${code}) before the ${method} response`));
    }
    ws.on("message", onMessage);
    ws.on("close", onClose);
    ws.send(JSON.stringify({ type: "req", id, method, params }));
  });
}

/** Close politely and wait for the close event; terminate if the close handshake stalls. */
export function closeClient(ws, timeoutMs = 2000) {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      ws.terminate();
      resolve();
    }, timeoutMs);
    ws.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    ws.close(1000, "bench done");
  });
}
