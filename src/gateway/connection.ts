import { randomUUID } from "node:crypto";
import type { RawData, WebSocket } from "ws";
import type { Logger } from "../infra/logger.js";
import { describeStorageError } from "../infra/storage-errors.js";
import { SessionKeyError } from "../sessions/keys/index.js";
import { CLOSE_MESSAGE_TOO_BIG, CLOSE_POLICY_VIOLATION, CLOSE_UNSUPPORTED_DATA, MAX_BUFFERED_BYTES, MAX_PAYLOAD_BYTES, MAX_PREAUTH_PAYLOAD_BYTES } from "./protocol/constants.js";
import { ErrorCodes, GatewayError, invalidRequest, missingScope, type ErrorShape } from "./protocol/errors.js";
import { cancelFrameValidator, requestFrameValidator } from "./protocol/frames.js";
import { scopeSatisfied, canReceiveEvent } from "./protocol/scopes.js";
import { evaluateConnect, type AcceptedConnect, type DevicePairing, type ProxyContext } from "./handshake.js";
import type { MethodRegistry } from "./methods/registry.js";
import type { GatewayRuntime } from "./runtime.js";
import type { ResolvedAuth } from "./auth/resolve-auth.js";
import type { AuthRateLimiter } from "./auth/rate-limiter.js";
import { raiseMaxPayload } from "./ws-payload-limit.js";
import { stability } from "../infra/stability/stability-recorder.js";
import { checkBrowserOrigin } from "./auth/browser-origin.js";

export interface ConnectionDeps {
  runtime: GatewayRuntime;
  methods: MethodRegistry;
  rateLimiter: AuthRateLimiter;
  auth: () => ResolvedAuth;
  logger: Logger;
  handshakeTimeoutMs: number;
  devices: DevicePairing;
  helloPayload: (conn: GatewayConnection, accepted: AcceptedConnect) => Record<string, unknown>;
  onOpen: (conn: GatewayConnection) => void;
  onClose: (conn: GatewayConnection) => void;
}

/** Responses to frames we cannot attribute to a request id still need an id on the wire. */
const UNATTRIBUTED_ID = "invalid-frame";

/**
 * One WebSocket client: the challenge/connect handshake, then request dispatch. A bad frame
 * costs its sender an error response, never the process or other clients.
 */
export class GatewayConnection {
  readonly connId = randomUUID();
  readonly connectedAt = Date.now();
  private readonly nonce = randomUUID();
  private state: "handshake" | "open" | "closed" = "handshake";
  private handshakeTimer: NodeJS.Timeout | undefined;
  private eventSeq = 0;
  private readonly inFlight = new Map<string, AbortController>();
  accepted: AcceptedConnect | undefined;

  constructor(
    private readonly ws: WebSocket,
    readonly remoteAddress: string,
    private readonly deps: ConnectionDeps,
    /** The upgrade's `Origin` header: browsers send one, other clients none. */
    private readonly origin?: string,
    /** In `trusted-proxy` auth mode: what the upgrade request proves, read when `connect` arrives. */
    private readonly proxy: () => ProxyContext | undefined = () => undefined,
  ) {
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
    ws.on("close", () => this.onClosed());
    ws.on("error", (err) => {
      // ws refuses a frame over the socket's limit from its header, before reading it, and closes 1009.
      if ((err as NodeJS.ErrnoException).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") this.recordOversizedFrame(undefined);
      deps.logger.debug({ connId: this.connId, err: err.message }, "websocket error");
    });
    this.handshakeTimer = setTimeout(() => this.close(CLOSE_POLICY_VIOLATION, "handshake timeout"), deps.handshakeTimeoutMs);
    this.sendFrame({ type: "event", event: "connect.challenge", payload: { nonce: this.nonce, ts: Date.now() } });
  }

  get isOpen(): boolean {
    return this.state === "open";
  }

  get scopes(): readonly string[] {
    return this.accepted?.scopes ?? [];
  }

  get caps(): readonly string[] {
    return this.accepted?.caps ?? [];
  }

  /** Broadcast-style event with this connection's own `seq`. Droppable events are skipped for slow consumers. */
  sendEvent(event: string, payload: unknown, opts: { droppable?: boolean; stateVersion?: Record<string, number> } = {}): void {
    if (this.state !== "open" || !canReceiveEvent(this.scopes, event)) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      if (opts.droppable) return;
      this.close(CLOSE_POLICY_VIOLATION, "slow consumer");
      return;
    }
    this.eventSeq += 1;
    this.sendFrame({ type: "event", event, payload, seq: this.eventSeq, ...(opts.stateVersion ? { stateVersion: opts.stateVersion } : {}) });
  }

  close(code: number, reason: string): void {
    if (this.state === "closed") return;
    this.markClosed();
    try {
      this.ws.close(code, truncateCloseReason(reason));
    } catch {
      this.ws.terminate();
    }
  }

  /** Drop the socket without a close handshake (shutdown fallback). */
  terminate(): void {
    this.markClosed();
    this.ws.terminate();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.state === "closed") return;
    const bytes = rawLength(data);
    if (this.state === "handshake") {
      if (bytes > MAX_PREAUTH_PAYLOAD_BYTES) {
        this.recordOversizedFrame(bytes);
        return this.close(CLOSE_MESSAGE_TOO_BIG, "payload too large before authentication");
      }
      if (isBinary) return this.close(CLOSE_UNSUPPORTED_DATA, "binary frames are not supported");
      return this.onHandshakeFrame(rawToString(data));
    }
    if (bytes > MAX_PAYLOAD_BYTES) {
      this.recordOversizedFrame(bytes);
      return this.close(CLOSE_MESSAGE_TOO_BIG, "payload too large");
    }
    if (isBinary) return this.respondError(UNATTRIBUTED_ID, invalidRequest("invalid frame: binary frames are not supported").shape);
    this.onRequestFrame(rawToString(data));
  }

  /** A frame refused for its size, in the stability stream: its size when known, the limit it broke, never its content. */
  private recordOversizedFrame(bytes: number | undefined): void {
    const preauth = this.state === "handshake";
    stability.record("payload.large", {
      surface: "gateway.ws",
      action: "rejected",
      ...(bytes !== undefined ? { bytes } : {}),
      limitBytes: preauth ? MAX_PREAUTH_PAYLOAD_BYTES : MAX_PAYLOAD_BYTES,
      reason: preauth ? "preauth_limit" : "frame_limit",
    });
  }

  private onHandshakeFrame(text: string): void {
    const frame = parseJson(text);
    if (!requestFrameValidator.check(frame) || frame.method !== "connect") {
      const id = frameId(frame);
      const message = "invalid handshake: first frame must be a connect request";
      if (id) this.respondError(id, invalidRequest(message).shape);
      return this.close(CLOSE_POLICY_VIOLATION, message);
    }
    const origin = checkBrowserOrigin(this.origin, this.deps.runtime.config().gateway?.controlUi?.allowedOrigins ?? []);
    if (!origin.ok) {
      this.deps.logger.info({ connId: this.connId, ip: this.remoteAddress, reason: "CONTROL_UI_ORIGIN_NOT_ALLOWED" }, "connect rejected");
      this.respondError(frame.id, origin.error);
      return this.close(CLOSE_POLICY_VIOLATION, "origin not allowed");
    }
    const result = evaluateConnect({
      params: frame.params,
      nonce: this.nonce,
      remoteAddress: this.remoteAddress,
      auth: this.deps.auth(),
      rateLimiter: this.deps.rateLimiter,
      now: Date.now(),
      devices: this.deps.devices,
      proxy: this.proxy(),
    });
    if (!result.ok) {
      this.deps.logger.info({ connId: this.connId, ip: this.remoteAddress, reason: result.error.details?.code ?? result.error.code }, "connect rejected");
      this.respondError(frame.id, result.error);
      return this.close(CLOSE_POLICY_VIOLATION, result.closeReason);
    }
    clearTimeout(this.handshakeTimer);
    try {
      raiseMaxPayload(this.ws, MAX_PAYLOAD_BYTES);
    } catch (err) {
      this.deps.logger.error({ connId: this.connId, err: (err as Error).message }, "could not raise the frame limit after authentication");
      this.respondError(frame.id, { code: ErrorCodes.UNAVAILABLE, message: "gateway cannot accept this connection (internal frame limit); see the gateway log" });
      return this.close(CLOSE_POLICY_VIOLATION, "internal error");
    }
    this.accepted = result;
    this.state = "open";
    this.sendFrame({ type: "res", id: frame.id, ok: true, payload: this.deps.helloPayload(this, result) });
    this.deps.logger.info(
      { connId: this.connId, ip: this.remoteAddress, client: result.params.client.id, mode: result.params.client.mode, protocol: result.protocol, role: result.role },
      "client connected",
    );
    this.deps.onOpen(this);
  }

  private onRequestFrame(text: string): void {
    const frame = parseJson(text);
    if (frame === undefined) return this.respondError(UNATTRIBUTED_ID, invalidRequest("invalid frame: not JSON").shape);
    if (cancelFrameValidator.check(frame)) {
      this.inFlight.get(frame.id)?.abort(new Error("cancelled by client"));
      return;
    }
    if (!requestFrameValidator.check(frame)) {
      const reason = isObject(frame) && frame.type !== "req" ? `unsupported frame type ${JSON.stringify(frame.type ?? null)}` : requestFrameValidator.firstError(frame);
      return this.respondError(frameId(frame) ?? UNATTRIBUTED_ID, invalidRequest(`invalid request frame: ${reason}`).shape);
    }
    void this.dispatch(frame.id, frame.method, frame.params);
  }

  private async dispatch(id: string, methodName: string, rawParams: unknown): Promise<void> {
    try {
      if (methodName === "connect") throw invalidRequest("already connected");
      const method = this.deps.methods.get(methodName);
      if (!method) throw invalidRequest(`unknown method: ${methodName}`);
      if (this.accepted?.role !== "operator" || !scopeSatisfied(this.scopes, method.definition.scope)) {
        throw missingScope(method.definition.scope);
      }
      const params = rawParams ?? {};
      if (!method.validator.check(params)) {
        throw invalidRequest(`invalid ${methodName} params: ${method.validator.firstError(params)}`);
      }
      const controller = new AbortController();
      this.inFlight.set(id, controller);
      try {
        const payload = await method.definition.handler(params, {
          runtime: this.deps.runtime,
          caller: {
            connId: this.connId,
            role: this.accepted.role,
            scopes: this.scopes,
            caps: this.accepted.caps,
            clientId: this.accepted.params.client.id,
            clientMode: this.accepted.params.client.mode,
          },
          signal: controller.signal,
          ack: (payload) => this.sendFrame({ type: "res", id, ok: true, payload }),
        });
        // A handler that returns nothing answers `{}`; an explicit `null` ("none yet") goes out as is.
        this.sendFrame({ type: "res", id, ok: true, payload: payload === undefined ? {} : payload });
      } finally {
        this.inFlight.delete(id);
      }
    } catch (err) {
      if (err instanceof GatewayError) return this.respondError(id, err.shape);
      // A session key or agent id the client sent that no key may hold: the client's to fix, not a retry.
      if (err instanceof SessionKeyError) return this.respondError(id, invalidRequest(err.message).shape);
      this.deps.logger.error({ connId: this.connId, method: methodName, err: (err as Error).message, code: (err as NodeJS.ErrnoException).code }, "method failed");
      const storage = describeStorageError(err, this.deps.runtime.stateDir);
      this.respondError(id, { code: ErrorCodes.UNAVAILABLE, message: `${methodName} failed: ${storage ?? "internal error"}`, retryable: true });
    }
  }

  private respondError(id: string, error: ErrorShape): void {
    this.sendFrame({ type: "res", id, ok: false, error });
  }

  private sendFrame(frame: Record<string, unknown>): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify(frame));
  }

  private markClosed(): void {
    if (this.state === "closed") return;
    const wasOpen = this.state === "open";
    this.state = "closed";
    clearTimeout(this.handshakeTimer);
    for (const controller of this.inFlight.values()) controller.abort(new Error("connection closed"));
    this.inFlight.clear();
    if (wasOpen) this.deps.onClose(this);
  }

  private onClosed(): void {
    this.markClosed();
  }
}

function rawLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return (data as Buffer | ArrayBuffer).byteLength;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function frameId(frame: unknown): string | undefined {
  return isObject(frame) && typeof frame.id === "string" && frame.id.length > 0 ? frame.id : undefined;
}

/** WebSocket close reasons are limited to 123 bytes of UTF-8. */
function truncateCloseReason(reason: string): string {
  const buf = Buffer.from(reason, "utf8");
  if (buf.length <= 123) return reason;
  return `${buf
    .subarray(0, 120)
    .toString("utf8")
    .replace(/\uFFFD$/, "")}...`;
}
