import { randomId } from "./ids.js";
import { METHOD_SCOPES, type ScopedMethod, scopeHeld } from "./method-scopes.js";

/** One error the gateway answered with (`res.ok === false`). */
export class GatewayRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The method is not on this gateway (older build, or a feature that has not landed). */
  get isUnknownMethod(): boolean {
    return this.code === "INVALID_REQUEST" && /^unknown method/.test(this.message);
  }
}

export interface HelloOk {
  server: { version: string; connId: string };
  features: { methods: string[]; events: string[] };
  snapshot: { sessionDefaults?: { defaultAgentId: string; mainKey: string; mainSessionKey: string }; [k: string]: unknown };
  auth: { role: string; scopes: string[] };
  policy: { tickIntervalMs: number };
}

export type ConnectionState =
  | { kind: "connecting"; attempt: number }
  | { kind: "open"; hello: HelloOk }
  | { kind: "auth-failed"; message: string; code: string }
  | { kind: "closed"; reason: string; retryInMs: number };

interface Pending {
  resolve: (payload: unknown) => void;
  reject: (err: Error) => void;
}

const SCOPES = ["operator.read", "operator.write", "operator.admin", "operator.approvals", "operator.pairing"];
const MAX_BACKOFF_MS = 10_000;

/**
 * The browser's protocol client: answers the challenge with a `connect` as the Control UI,
 * sends requests, hands events to listeners, and reconnects with back-off when the socket drops.
 * A rejected token stops it: retrying a wrong token only earns a lockout.
 */
export class GatewayClient {
  private ws: WebSocket | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly eventListeners = new Set<(event: string, payload: unknown) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private nextId = 1;
  private attempt = 0;
  private stopped = false;
  private retryTimer: number | undefined;
  private livenessTimer: number | undefined;
  private lastFrameAt = 0;
  state: ConnectionState = { kind: "connecting", attempt: 0 };

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly version: string,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.livenessTimer);
    this.ws?.close(1000, "signed out");
    this.failPending(new Error("disconnected"));
  }

  /** Drop the socket as a network fault would (the client reconnects as it does then). */
  dropConnection(): void {
    this.ws?.close(4000, "dropped");
  }

  onEvent(listener: (event: string, payload: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onState(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  get hello(): HelloOk | undefined {
    return this.state.kind === "open" ? this.state.hello : undefined;
  }

  has(method: string): boolean {
    return this.hello?.features.methods.includes(method) ?? false;
  }

  /** Whether the scopes the gateway granted this connection satisfy `scope` (operator.admin satisfies them all). */
  grants(scope: string): boolean {
    return scopeHeld(this.hello?.auth.scopes ?? [], scope);
  }

  /** Whether this connection holds the scope `method` needs, whether or not this gateway has it. */
  grantsScopeOf(method: ScopedMethod): boolean {
    return this.grants(METHOD_SCOPES[method]);
  }

  /** Whether this gateway has `method` and would let this connection call it (hello-ok lists every method, whatever the scopes). */
  may(method: ScopedMethod): boolean {
    return this.has(method) && this.grantsScopeOf(method);
  }

  request<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const ws = this.ws;
    if (this.state.kind !== "open" || !ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new GatewayRequestError("UNAVAILABLE", "not connected to the gateway"));
    }
    return this.send(ws, method, params);
  }

  private send<T>(ws: WebSocket, method: string, params: Record<string, unknown>): Promise<T> {
    const id = `ui-${this.nextId++}`;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (payload: unknown) => void, reject });
      ws.send(JSON.stringify({ type: "req", id, method, params }));
    });
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private open(): void {
    this.setState({ kind: "connecting", attempt: this.attempt });
    const ws = new WebSocket(this.url);
    this.ws = ws;
    let authFailed = false;
    ws.onmessage = (message) => {
      this.lastFrameAt = Date.now();
      const frame = parseFrame(message.data);
      if (!frame) return;
      if (frame.type === "event" && frame.event === "connect.challenge") {
        this.send<HelloOk>(ws, "connect", this.connectParams())
          .then((hello) => {
            this.attempt = 0;
            this.setState({ kind: "open", hello });
            this.watchLiveness(ws, hello.policy.tickIntervalMs);
          })
          .catch((err: GatewayRequestError) => {
            authFailed = true;
            this.setState({ kind: "auth-failed", message: err.message, code: String(err.details?.code ?? err.code) });
          });
        return;
      }
      if (frame.type === "res" && frame.id) {
        const pending = this.pending.get(frame.id);
        if (!pending) return;
        this.pending.delete(frame.id);
        if (frame.ok) pending.resolve(frame.payload ?? {});
        else pending.reject(new GatewayRequestError(frame.error?.code ?? "UNAVAILABLE", frame.error?.message ?? "request failed", frame.error?.details ?? {}));
        return;
      }
      if (frame.type === "event" && frame.event) for (const listener of this.eventListeners) listener(frame.event, frame.payload);
    };
    ws.onclose = (close) => {
      if (this.ws !== ws) return;
      window.clearInterval(this.livenessTimer);
      this.failPending(new GatewayRequestError("UNAVAILABLE", "connection to the gateway closed"));
      if (this.stopped || authFailed) return;
      const retryInMs = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt);
      this.attempt += 1;
      this.setState({ kind: "closed", reason: close.reason || `connection closed (${close.code})`, retryInMs });
      this.retryTimer = window.setTimeout(() => this.open(), retryInMs);
    };
  }

  /** Ticks arrive every tickIntervalMs; two missed in a row mean a dead link the OS has not noticed. */
  private watchLiveness(ws: WebSocket, tickIntervalMs: number): void {
    window.clearInterval(this.livenessTimer);
    this.livenessTimer = window.setInterval(
      () => {
        if (Date.now() - this.lastFrameAt > tickIntervalMs * 2.5) ws.close(4000, "no tick from the gateway");
      },
      Math.max(1_000, tickIntervalMs / 2),
    );
  }

  private connectParams(): Record<string, unknown> {
    return {
      minProtocol: 3,
      maxProtocol: 4,
      client: { id: "openclaw-control-ui", version: this.version, platform: "web", mode: "ui", instanceId: instanceId() },
      role: "operator",
      scopes: SCOPES,
      caps: ["tool-events"],
      // One secret field in the UI: a token gateway reads `token`, a password gateway `password`.
      // Without one (a gateway behind an identity-aware proxy), no auth field at all.
      ...(this.token ? { auth: { token: this.token, password: this.token } } : {}),
      userAgent: navigator.userAgent.slice(0, 256),
      locale: navigator.language,
    };
  }

  private failPending(err: Error): void {
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
  }
}

/** A frame from the gateway: a request's answer or a pushed event. */
interface Frame {
  type?: string;
  id?: string;
  ok?: boolean;
  payload?: unknown;
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
  event?: string;
}

function parseFrame(data: unknown): Frame | undefined {
  if (typeof data !== "string") return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** One id per browser, so the gateway's presence list shows this browser once across reconnects. */
function instanceId(): string {
  const key = "openclaw.controlUi.instanceId";
  try {
    const existing = window.localStorage.getItem(key);
    if (existing) return existing;
    const id = randomId();
    window.localStorage.setItem(key, id);
    return id;
  } catch {
    return randomId();
  }
}
