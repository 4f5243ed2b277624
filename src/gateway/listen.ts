import type http from "node:http";
import type net from "node:net";
import type { Duplex } from "node:stream";
import type tls from "node:tls";
import { positiveIntSetting } from "../infra/positive-int.js";
import type { ListeningHandle } from "./loopback-socket.js";

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

/** How long a request that arrives while the gateway starts waits for the app before it gets 503. */
export const DEFAULT_HOLD_LIMIT_MS = 10_000;
/** A connection that has not sent a whole request (or upgrade) by then is closed. */
export const DEFAULT_FIRST_REQUEST_TIMEOUT_MS = 15_000;

/** Probes answer at once while starting: a probe that waited would time out instead of saying "not yet". */
const LIVENESS_PATHS = new Set(["/health", "/healthz"]);
const READINESS_PATHS = new Set(["/ready", "/readyz", "/startup", "/startupz"]);

/** The gateway's listener, with $OPENCLAW_HTTP_FIRST_REQUEST_TIMEOUT_MS applied; HTTPS/WSS only when `secure` is given. */
export function createListener(env: NodeJS.ProcessEnv, secure?: tls.SecureContextOptions): EarlyListener {
  return new EarlyListener(DEFAULT_HOLD_LIMIT_MS, positiveIntSetting(env.OPENCLAW_HTTP_FIRST_REQUEST_TIMEOUT_MS) ?? DEFAULT_FIRST_REQUEST_TIMEOUT_MS, secure);
}

interface PendingUpgrade {
  req: http.IncomingMessage;
  socket: Duplex;
  head: Buffer;
  onError: () => void;
}

interface HeldRequest {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  timer: NodeJS.Timeout;
}

/**
 * The listening socket, opened before the heavy parts of the gateway load so the port is
 * reachable at once. Until the app takes over, liveness answers 200 and readiness 503
 * "starting"; every other request is held (its body unread, so nothing is lost) and handed to
 * the app the moment it is ready, so a client that connects early is answered as soon as
 * possible instead of having to retry. One held longer than the hold limit gets 503 "starting".
 * WebSocket upgrades wait for their own handler, which the app may attach earlier.
 * Connections accepted on a second address (`listenAlso`) are served by the same server.
 */
export class EarlyListener {
  readonly server: http.Server;
  private readonly aliases: net.Server[] = [];
  private requestHandler: RequestHandler | undefined;
  private upgradeHandler: UpgradeHandler | undefined;
  private readonly pendingUpgrades: PendingUpgrade[] = [];
  /** In arrival order (a Set iterates in insertion order). */
  private readonly heldRequests = new Set<HeldRequest>();

  /** Whether connections are TLS (HTTPS and WSS); nothing else is served on the port then. */
  readonly secure: boolean;

  constructor(
    private readonly holdLimitMs = DEFAULT_HOLD_LIMIT_MS,
    firstRequestTimeoutMs = DEFAULT_FIRST_REQUEST_TIMEOUT_MS,
    secure?: tls.SecureContextOptions,
  ) {
    this.secure = secure !== undefined;
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
      req.socket.setTimeout(0);
      this.onRequest(req, res);
    };
    // Loaded here rather than with the module: the CLI entry imports this file for every command.
    this.server = secure
      ? process.getBuiltinModule("node:https").createServer({ ...secure, handshakeTimeout: firstRequestTimeoutMs }, onRequest)
      : process.getBuiltinModule("node:http").createServer(onRequest);
    // Until its first request a connection only costs; one that never sends is closed (Node's
    // own timeout handling destroys a socket whose idle timer fires). Under TLS the timer is on
    // the TLS socket, the one HTTP reads from; the handshake has its own limit above.
    const armFirstRequestTimer = (socket: Duplex & { setTimeout(ms: number): void }) => socket.setTimeout(firstRequestTimeoutMs);
    this.server.on(secure ? "secureConnection" : "connection", armFirstRequestTimer);
    // A failed handshake (a plain-HTTP client, a wrong certificate on the client's side) ends that connection only.
    if (secure) this.server.on("tlsClientError", (_err, socket) => socket.destroy());
    this.server.on("upgrade", (req, socket, head) => {
      (socket as Duplex & { setTimeout(ms: number): void }).setTimeout(0);
      if (this.upgradeHandler) this.upgradeHandler(req, socket, head);
      else this.holdUpgrade(req, socket, head);
    });
    // Idle keep-alive sockets must not hold shutdown open.
    this.server.keepAliveTimeout = 5_000;
  }

  /** New TLS connections use `secure` from now on; established ones keep the certificate they were served. */
  renewTls(secure: tls.SecureContextOptions): void {
    if (!this.secure) throw new Error("this listener does not serve TLS");
    (this.server as unknown as tls.Server).setSecureContext(secure);
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once("error", onError);
      this.server.listen({ port, host, exclusive: true }, () => {
        this.server.off("error", onError);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  /**
   * Accepts connections on `host` too, each handed to this listener's server as if accepted on its
   * own address: the same handlers, auth, timeouts and shutdown. Only after `listen`: the server
   * tracks the connections it closes at shutdown from the moment it listens.
   */
  listenAlso(port: number, host: string): Promise<void> {
    const alias = process.getBuiltinModule("node:net").createServer((socket) => this.server.emit("connection", socket));
    this.aliases.push(alias);
    return new Promise((resolve, reject) => {
      alias.once("error", reject);
      alias.listen({ port, host, exclusive: true }, () => {
        alias.off("error", reject);
        resolve();
      });
    });
  }

  /** Serves on a socket that is already listening (see loopback-socket.ts); resolves with its port. */
  adopt(handle: ListeningHandle): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once("error", onError);
      this.server.listen(handle, () => {
        this.server.off("error", onError);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  /** WebSocket upgrades go to `handler` from now on; those that arrived earlier go first. */
  attachUpgrades(handler: UpgradeHandler): void {
    this.upgradeHandler = handler;
    for (const { req, socket, head, onError } of this.pendingUpgrades.splice(0)) {
      socket.off("error", onError);
      if (!socket.destroyed) handler(req, socket, head);
    }
  }

  /** HTTP requests go to `handler` from now on; held ones go first, in the order they arrived. */
  attachRequests(handler: RequestHandler): void {
    this.requestHandler = handler;
    for (const held of [...this.heldRequests]) {
      this.release(held);
      handler(held.req, held.res);
    }
  }

  /** Held requests are answered 503 (the app never took over); then every address and connection closes. */
  close(): Promise<void> {
    for (const alias of this.aliases.splice(0)) if (alias.listening) alias.close();
    for (const held of [...this.heldRequests]) {
      this.release(held);
      answerStarting(held.res, { closing: true });
    }
    // Upgraded sockets are no longer the HTTP server's to close, and would keep close() waiting.
    for (const { socket } of this.pendingUpgrades.splice(0)) socket.destroy();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.requestHandler) {
      this.requestHandler(req, res);
      return;
    }
    const path = (req.url ?? "/").split("?")[0]!;
    if (LIVENESS_PATHS.has(path)) answer(res, 200, { ok: true, status: "live" });
    else if (READINESS_PATHS.has(path)) answerStarting(res);
    else this.hold(req, res);
  }

  private holdUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node drops its own error listener from a socket it hands over for an upgrade; a client that
    // resets while waiting must not become an uncaught exception.
    const pending: PendingUpgrade = {
      req,
      socket,
      head,
      onError: () => socket.destroy(),
    };
    socket.on("error", pending.onError);
    this.pendingUpgrades.push(pending);
  }

  private hold(req: http.IncomingMessage, res: http.ServerResponse): void {
    const held: HeldRequest = {
      req,
      res,
      timer: setTimeout(() => {
        this.release(held);
        answerStarting(res);
      }, this.holdLimitMs),
    };
    this.heldRequests.add(held);
    // A client that gives up (or a socket torn down) leaves the queue instead of reaching the app.
    res.once("close", () => this.release(held));
  }

  private release(held: HeldRequest): void {
    clearTimeout(held.timer);
    this.heldRequests.delete(held);
  }
}

function answerStarting(res: http.ServerResponse, opts: { closing?: boolean } = {}): void {
  answer(res, 503, { ok: false, status: "starting" }, opts.closing ? { connection: "close" } : {});
}

function answer(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}
