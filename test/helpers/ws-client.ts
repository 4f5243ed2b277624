import WebSocket from "ws";
import { randomUUID } from "node:crypto";

export type Frame = Record<string, any>;

/** A raw protocol client for tests: every frame is kept, and tests await the ones they expect. */
export class TestSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters = new Set<() => void>();

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      let frame: Frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        frame = { unparsable: data.toString() };
      }
      this.frames.push(frame);
      this.notify();
    });
    this.closed = new Promise((resolve) => {
      ws.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.notify();
      });
    });
    ws.on("error", () => {});
  }

  static open(url: string): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
      const sock = new TestSocket(ws);
      ws.once("open", () => resolve(sock));
      ws.once("error", reject);
    });
  }

  send(frame: unknown): void {
    if (Buffer.isBuffer(frame)) this.ws.send(frame, { binary: true });
    else this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** Wait for the first frame (seen or future) matching the predicate. */
  waitFor(predicate: (f: Frame) => boolean, timeoutMs = 5_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(predicate);
        if (found) {
          done();
          resolve(found);
        } else if (this.ws.readyState === WebSocket.CLOSED) {
          done();
          reject(new Error("socket closed before the expected frame arrived"));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error("timed out waiting for frame"));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  challenge(): Promise<Frame> {
    return this.waitFor((f) => f.type === "event" && f.event === "connect.challenge");
  }

  response(id: string, timeoutMs?: number): Promise<Frame> {
    return this.waitFor((f) => f.type === "res" && f.id === id, timeoutMs);
  }

  async request(method: string, params?: unknown, timeoutMs?: number): Promise<Frame> {
    const id = randomUUID();
    this.send({ type: "req", id, method, ...(params === undefined ? {} : { params }) });
    return this.response(id, timeoutMs);
  }

  async connect(params: Frame): Promise<Frame> {
    await this.challenge();
    return this.request("connect", params);
  }

  close(): void {
    this.ws.close();
  }

  private notify(): void {
    for (const w of this.waiters) w();
  }
}

export function connectParams(token: string | undefined, overrides: Frame = {}): Frame {
  return {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: "cli", version: "test", platform: "linux", mode: "cli" },
    role: "operator",
    ...(token ? { auth: { token } } : {}),
    ...overrides,
  };
}

/** Open a socket and complete the handshake as the OpenClaw CLI does. */
export async function openOperator(url: string, token: string | undefined, overrides: Frame = {}): Promise<{ sock: TestSocket; hello: Frame }> {
  const sock = await TestSocket.open(url);
  const res = await sock.connect(connectParams(token, overrides));
  if (!res.ok) throw new Error(`connect failed: ${JSON.stringify(res.error)}`);
  return { sock, hello: res.payload };
}
