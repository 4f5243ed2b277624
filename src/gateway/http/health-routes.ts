import type { FastifyInstance, FastifyRequest } from "fastify";
import { attributeIngress, type ProxySettings } from "../ingress-attribution.js";
import type { GatewayRuntime } from "../runtime.js";

/**
 * Unauthenticated probes (see docs/protocol.md, "HTTP on the same port"). Remote callers learn only
 * `{ok, status}`; callers on this host, not through a proxy, also get the version and uptime.
 */
export function registerHealthRoutes(app: FastifyInstance, runtime: GatewayRuntime, isDraining: () => boolean, proxies: () => ProxySettings): void {
  const details = (req: FastifyRequest) =>
    attributeIngress(req.socket.remoteAddress, req.headers, proxies()).kind === "direct-local" ? { version: runtime.version, uptimeMs: Date.now() - runtime.startedAt } : {};

  for (const url of ["/health", "/healthz"]) {
    app.get(url, async (req) => ({ ok: true, status: "live", ...details(req) }));
  }
  for (const url of ["/ready", "/readyz"]) {
    app.get(url, async (req, reply) => {
      const status = isDraining() ? "draining" : runtime.ready() ? "ready" : "starting";
      if (status !== "ready") reply.code(503);
      return { ok: status === "ready", status, ...details(req) };
    });
  }
  for (const url of ["/startup", "/startupz"]) {
    app.get(url, async (req, reply) => {
      const status = isDraining() ? "draining" : runtime.ready() ? "started" : "starting";
      if (status !== "started") reply.code(503);
      return { ok: status === "started", status, ...details(req) };
    });
  }
}
