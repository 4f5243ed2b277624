import { randomUUID } from "node:crypto";
import os from "node:os";
import WebSocket from "ws";
import { pinnedWebSocketOptions, TlsPinError } from "../infra/tls/pinned-tls.js";
import { plaintextWebSocketRefusal } from "../infra/tls/plaintext-websocket.js";
import { PROTOCOL_VERSION } from "./protocol/constants.js";
import type { ErrorShape } from "./protocol/errors.js";

export interface GatewayClientOptions {
  url: string;
  token?: string;
  password?: string;
  clientId?: string;
  mode?: string;
  version: string;
  scopes?: string[];
  caps?: string[];
  timeoutMs?: number;
  /**
   * For a `wss://` URL: the SHA-256 fingerprint the gateway's certificate must have. The pin
   * replaces CA verification (a self-signed gateway certificate passes it, nothing else does), and
   * nothing is sent before the certificate is checked.
   */
  tlsFingerprint?: string;
}

/** Where a CLI command connects and with what: the address, the credentials, the handshake limit and, for TLS, the pinned fingerprint. */
export interface GatewayTarget {
  url: string;
  credentials: { token?: string; password?: string };
  timeoutMs: number;
  tlsFingerprint?: string;
}

/** The connect options for `target`, as the CLI's client (`caps` to announce, e.g. `tool-events`). */
export function cliConnectOptions(target: GatewayTarget, version: string, caps?: string[]): GatewayClientOptions {
  return {
    url: target.url,
    ...target.credentials,
    ...(target.tlsFingerprint ? { tlsFingerprint: target.tlsFingerprint } : {}),
    version,
    clientId: "cli",
    mode: "cli",
    timeoutMs: target.timeoutMs,
    ...(caps ? { caps } : {}),
  };
}

/** An RPC failure or a refused/lost connection, with the gateway's error shape when there is one. */
export class GatewayClientError extends Error {
  /** The socket error's code (ECONNREFUSED, ENOTFOUND …) when the gateway could not be reached. */
  networkCode?: string;

  constructor(
    message: string,
    readonly error?: ErrorShape,
    readonly closeCode?: number,
  ) {
    super(message);
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; expectFinal: boolean };

/**
 * The CLI's side of the protocol: wait for `connect.challenge`, send `connect`, then
 * request/response calls. The same handshake a real OpenClaw client performs.
 */
export class GatewayClient {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();
  private readonly closeListeners = new Set<(code: number, reason: string) => void>();
  hello: Record<string, unknown> = {};

  private constructor(private readonly ws: WebSocket) {}

  static connect(opts: GatewayClientOptions): Promise<GatewayClient> {
    const timeoutMs = opts.timeoutMs ?? 10_000;
    // Nothing is opened to an address that would carry the credentials in plaintext, or that cannot honour a pin.
    const refusal = plaintextWebSocketRefusal(opts.url);
    if (refusal) return Promise.reject(new GatewayClientError(refusal));
    if (opts.tlsFingerprint !== undefined && !/^wss:/i.test(opts.url)) {
      return Promise.reject(
        new GatewayClientError(`a TLS fingerprint is pinned for ${opts.url}, which is not a wss:// address: use wss:// (the pin needs TLS), or remove the pin`),
      );
    }
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(opts.url, {
        maxPayload: 64 * 1024 * 1024,
        ...pinnedWebSocketOptions(opts.tlsFingerprint),
      });
      const client = new GatewayClient(ws);
      let settled = false;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) {
          ws.terminate();
          reject(err);
        } else resolve(client);
      };
      const timer = setTimeout(() => finish(new GatewayClientError(`gateway handshake timed out after ${timeoutMs} ms (${opts.url})`)), timeoutMs);
      const connectId = randomUUID();
      ws.on("error", (err) => {
        const code = (err as NodeJS.ErrnoException).code;
        const failure = new GatewayClientError(`cannot reach gateway at ${opts.url}: ${err instanceof TlsPinError ? err.message : (code ?? err.message)}`);
        failure.networkCode = code;
        finish(failure);
      });
      ws.on("close", (code, reason) => {
        finish(new GatewayClientError(`gateway closed the connection (${code}): ${reason.toString() || "no reason"}`, undefined, code));
        client.failAll(new GatewayClientError(`gateway connection closed (${code})`, undefined, code));
        for (const listener of client.closeListeners) listener(code, reason.toString());
      });
      ws.on("message", (data) => {
        const frame = JSON.parse(data.toString()) as Record<string, unknown>;
        if (!settled && frame.type === "event" && frame.event === "connect.challenge") {
          ws.send(JSON.stringify({ type: "req", id: connectId, method: "connect", params: connectParams(opts) }));
          return;
        }
        if (!settled && frame.type === "res" && frame.id === connectId) {
          if (frame.ok) {
            client.hello = frame.payload as Record<string, unknown>;
            finish();
          } else {
            const error = frame.error as ErrorShape;
            finish(new GatewayClientError(error.message, error));
          }
          return;
        }
        client.onFrame(frame);
      });
    });
  }

  call<T = unknown>(method: string, params: unknown = {}, opts: { timeoutMs?: number; expectFinal?: boolean } = {}): Promise<T> {
    const id = randomUUID();
    const timeoutMs = opts.timeoutMs ?? 30_000;
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.reject(new GatewayClientError(`${method}: the gateway connection is closed`));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new GatewayClientError(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, expectFinal: opts.expectFinal ?? false });
      this.ws.send(JSON.stringify({ type: "req", id, method, params }));
    });
  }

  onEvent(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when an established connection closes (either side). */
  onClose(listener: (code: number, reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.ws.close(1000, "client done");
  }

  private onFrame(frame: Record<string, unknown>): void {
    if (frame.type === "event") {
      for (const listener of this.listeners) listener(frame.event as string, frame.payload);
      return;
    }
    if (frame.type !== "res") return;
    const pending = this.pending.get(frame.id as string);
    if (!pending) return;
    const payload = frame.payload as { status?: string } | undefined;
    // Two-stage methods answer "accepted" first; callers that want the result wait for the second.
    if (frame.ok && pending.expectFinal && payload?.status === "accepted") return;
    clearTimeout(pending.timer);
    this.pending.delete(frame.id as string);
    if (frame.ok) pending.resolve(frame.payload);
    else {
      const error = frame.error as ErrorShape;
      pending.reject(new GatewayClientError(error.message, error));
    }
  }

  private failAll(err: Error): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(err);
      this.pending.delete(id);
    }
  }
}

function connectParams(opts: GatewayClientOptions): Record<string, unknown> {
  const auth: Record<string, string> = {};
  if (opts.token) auth.token = opts.token;
  if (opts.password) auth.password = opts.password;
  return {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: { id: opts.clientId ?? "cli", version: opts.version, platform: os.platform(), mode: opts.mode ?? "cli" },
    role: "operator",
    ...(opts.scopes ? { scopes: opts.scopes } : {}),
    caps: opts.caps ?? [],
    ...(Object.keys(auth).length > 0 ? { auth } : {}),
  };
}
