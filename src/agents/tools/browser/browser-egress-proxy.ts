import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { decideNavigation, type BrowserSsrfPolicy, type HostResolver, systemResolver } from "./browser-ssrf.js";

/** The basic credentials Chromium must present on every proxied request. */
export interface ProxyCredentials {
  username: string;
  password: string;
}

/** One connection the proxy refused, for the tool to report. */
export interface BlockedRequest {
  url: string;
  address?: string;
  at: number;
}

const PROXY_CHALLENGE = 'Basic realm="openclaw-browser"';
const HOP_BY_HOP = ["proxy-connection", "proxy-authorization", "connection", "keep-alive", "te", "trailer", "upgrade"];

/**
 * The browser's only way out: Chromium is launched with this loopback proxy (loopback included,
 * `<-loopback>`), and every request it makes, plain http and https/wss tunnels alike, redirects,
 * subresources and popups included, is checked here against `browser.ssrfPolicy` before a
 * connection is opened, and then opened to the very address that was checked (no second DNS
 * answer can swap in a private one). What a page cannot reach through it, it cannot reach.
 * It answers only a client holding its credentials, fresh random ones per proxy: another local
 * process cannot borrow the gateway's network position through it.
 */
export class BrowserEgressProxy {
  private server: http.Server | undefined;
  private readonly sockets = new Set<Duplex>();
  /** The most recent refusals (at most 50), newest last. */
  readonly blocked: BlockedRequest[] = [];
  readonly credentials: ProxyCredentials = { username: randomBytes(12).toString("hex"), password: randomBytes(24).toString("hex") };
  private readonly expectedAuthorization = Buffer.from(`Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString("base64")}`);

  constructor(
    private readonly policy: BrowserSsrfPolicy,
    private readonly resolve: HostResolver = systemResolver,
  ) {}

  /** Listens on 127.0.0.1 and returns the port. */
  async start(): Promise<number> {
    const server = http.createServer((req, res) => void this.forward(req, res));
    server.on("connect", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    server.on("connection", (socket) => this.track(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.server = server;
    return (server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  }

  private recordBlocked(url: string, address?: string): void {
    this.blocked.push({ url, ...(address ? { address } : {}), at: Date.now() });
    if (this.blocked.length > 50) this.blocked.shift();
  }

  /** Whether the request carries this proxy's credentials, compared in constant time. */
  private authorized(req: http.IncomingMessage): boolean {
    const given = Buffer.from(req.headers["proxy-authorization"] ?? "");
    return given.length === this.expectedAuthorization.length && timingSafeEqual(given, this.expectedAuthorization);
  }

  /** The address to connect to for `url`, or undefined (recorded) when the policy refuses it. */
  private async checkedAddress(url: string, host: string): Promise<string | undefined> {
    const decision = await decideNavigation(url, this.policy, this.resolve);
    if (!decision.allowed) {
      this.recordBlocked(url, decision.reason === "private" ? decision.address : undefined);
      return undefined;
    }
    if (decision.addresses) return decision.addresses[0];
    // Allowed whatever it resolves to (an allowed hostname, or private networks allowed).
    const bare = host.replace(/^\[|\]$/g, "");
    if (net.isIP(bare)) return bare;
    try {
      return (await this.resolve(bare))[0];
    } catch {
      return undefined;
    }
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!this.authorized(req)) {
      res.writeHead(407, { "proxy-authenticate": PROXY_CHALLENGE }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const address = await this.checkedAddress(target.href, target.hostname);
    if (!address) {
      res.writeHead(403, { "content-type": "text/plain" }).end("Blocked by the gateway's browser.ssrfPolicy.");
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = http.request(
      { host: address, port: target.port || 80, method: req.method, path: `${target.pathname}${target.search}`, headers: { ...headers, host: target.host }, setHost: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  }

  private async tunnel(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (!this.authorized(req)) {
      socket.end(`HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ${PROXY_CHALLENGE}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const authority = req.url ?? "";
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
    if (!match) {
      socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    const host = match[1]!;
    const port = Number(match[2]);
    // A tunnel carries https (or wss): the policy is checked on its https form.
    const address = await this.checkedAddress(`https://${host}:${port}/`, host);
    if (!address) {
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const upstream = net.connect({ host: address, port });
    this.track(upstream);
    upstream.once("connect", () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.once("error", () => socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
    socket.once("close", () => upstream.destroy());
  }
}
