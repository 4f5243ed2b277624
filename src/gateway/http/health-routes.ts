import type { FastifyInstance } from "fastify";
import { isLoopbackAddress } from "../auth/rate-limiter.js";
import type { GatewayRuntime } from "../runtime.js";

/**
 * Unauthenticated probes (see docs/protocol.md, "HTTP on the same port"). Remote callers learn only
 * `{ok, status}`; local callers also get the version and uptime.
 */
export function registerHealthRoutes(app: FastifyInstance, runtime: GatewayRuntime, isDraining: () => boolean): void {
  const details = (ip: string) => (isLoopbackAddress(ip) ? { version: runtime.version, uptimeMs: Date.now() - runtime.startedAt } : {});

  for (const url of ["/health", "/healthz"]) {
    app.get(url, async (req) => ({ ok: true, status: "live", ...details(req.ip) }));
  }
  for (const url of ["/ready", "/readyz"]) {
    app.get(url, async (req, reply) => {
      const status = isDraining() ? "draining" : runtime.ready() ? "ready" : "starting";
      if (status !== "ready") reply.code(503);
      return { ok: status === "ready", status, ...details(req.ip) };
    });
  }
  for (const url of ["/startup", "/startupz"]) {
    app.get(url, async (req, reply) => {
      const status = isDraining() ? "draining" : runtime.ready() ? "started" : "starting";
      if (status !== "started") reply.code(503);
      return { ok: status === "started", status, ...details(req.ip) };
    });
  }
}
