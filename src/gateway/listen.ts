import http from "node:http";
import type { Duplex } from "node:stream";

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * The listening socket, opened before the heavy parts of the gateway load so the port is
 * reachable at once. Until the full app attaches, liveness answers 200 and everything else
 * 503 "starting"; WebSocket upgrades wait for the app instead of failing.
 */
export class EarlyListener {
  readonly server: http.Server;
  private requestHandler: RequestHandler = bootRequestHandler;
  private upgradeHandler: UpgradeHandler | undefined;
  private readonly pendingUpgrades: [http.IncomingMessage, Duplex, Buffer][] = [];

  constructor() {
    this.server = http.createServer((req, res) => this.requestHandler(req, res));
    this.server.on("upgrade", (req, socket, head) => {
      if (this.upgradeHandler) this.upgradeHandler(req, socket, head);
      else this.pendingUpgrades.push([req, socket, head]);
    });
    // Idle keep-alive sockets must not hold shutdown open.
    this.server.keepAliveTimeout = 5_000;
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

  attach(requestHandler: RequestHandler, upgradeHandler: UpgradeHandler): void {
    this.requestHandler = requestHandler;
    this.upgradeHandler = upgradeHandler;
    for (const [req, socket, head] of this.pendingUpgrades.splice(0)) upgradeHandler(req, socket, head);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

function bootRequestHandler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = (req.url ?? "/").split("?")[0];
  const live = path === "/health" || path === "/healthz";
  res.writeHead(live ? 200 : 503, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(live ? { ok: true, status: "live" } : { ok: false, status: "starting" }));
}
