import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ResolvedAuth } from "../auth/resolve-auth.js";
import type { AuthRateLimiter } from "../auth/rate-limiter.js";
import { attributeIngress, PROXY_ATTRIBUTION_REFUSAL, type ProxySettings } from "../ingress-attribution.js";
import type { ToolInvokeOutcome, ToolInvokeRequest } from "../tools-invoke/invoke-tool.js";
import { checkHttpAuth } from "./openai/bearer-auth.js";
import { abortWhenClientLeaves } from "./openai/client-abort.js";
import { stability } from "../../infra/stability/stability-recorder.js";

/** OpenClaw's limit for a `/tools/invoke` body. */
export const TOOLS_INVOKE_BODY_LIMIT = 2 * 1024 * 1024;

export interface ToolsInvokeRouteDeps {
  auth(): ResolvedAuth;
  rateLimiter: AuthRateLimiter;
  proxies(): ProxySettings;
  invoke(request: ToolInvokeRequest, options: { signal: AbortSignal; channel?: string }): Promise<ToolInvokeOutcome>;
}

const error = (type: string, message: string) => ({ ok: false, error: { type, message } });

/**
 * `POST /tools/invoke` (docs/http-api.md): one tool, called by an operator holding the gateway's
 * token or password, answered `{ ok: true, result }` or `{ ok: false, error: { type, message } }`
 * with OpenClaw's statuses (400 bad request or tool error, 401, 404 tool not available, 429, 500).
 * `x-openclaw-message-channel` names the channel whose tool policy applies.
 */
export function registerToolsInvokeRoute(app: FastifyInstance, deps: ToolsInvokeRouteDeps): void {
  app.register(async (scope) => {
    // A body that is no JSON or too big gets this route's error shape, not the web server's.
    scope.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
      const status = err.statusCode === 413 ? 413 : err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? 400 : 500;
      if (status === 413) stability.record("payload.large", { surface: "gateway.http.tools", action: "rejected", limitBytes: TOOLS_INVOKE_BODY_LIMIT, reason: "body_limit" });
      const message = status === 413 ? `the body is larger than ${TOOLS_INVOKE_BODY_LIMIT} bytes` : status === 400 ? err.message : "internal error";
      return reply.code(status).send(error(status === 500 ? "internal_error" : "invalid_request", message));
    });
    registerRoutes(scope, deps);
  });
}

function registerRoutes(app: FastifyInstance, deps: ToolsInvokeRouteDeps): void {
  app.post("/tools/invoke", { bodyLimit: TOOLS_INVOKE_BODY_LIMIT }, async (req: FastifyRequest, reply: FastifyReply) => {
    const ingress = attributeIngress(req.socket.remoteAddress, req.headers, deps.proxies());
    if (ingress.kind === "unattributable-proxy") return reply.code(PROXY_ATTRIBUTION_REFUSAL.status).send(PROXY_ATTRIBUTION_REFUSAL.body);
    const auth = checkHttpAuth({ socketAddress: req.socket.remoteAddress, headers: req.headers, ingress }, deps.auth(), deps.rateLimiter, deps.proxies());
    if (!auth.ok) {
      if (auth.status === 429)
        return reply.code(429).header("Retry-After", String(auth.retryAfterSeconds)).send(error("rate_limited", "too many failed authentication attempts; retry later"));
      if (auth.status === 403) return reply.code(403).send(error("forbidden", auth.message));
      return reply.code(401).send(error("unauthorized", auth.message ?? "a valid gateway token or password is required (Authorization: Bearer …)"));
    }
    const body = req.body;
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return reply.code(400).send(error("invalid_request", "the body must be a JSON object: { tool, args?, sessionKey?, agentId?, action? }"));
    const request = readRequest(body as Record<string, unknown>);
    if (typeof request === "string") return reply.code(400).send(error("invalid_request", request));
    const channel = req.headers["x-openclaw-message-channel"];
    const outcome = await deps.invoke(request, {
      signal: abortWhenClientLeaves(reply.raw),
      ...(typeof channel === "string" && channel.trim() ? { channel: channel.trim().toLowerCase() } : {}),
    });
    return outcome.ok ? reply.code(200).send({ ok: true, result: outcome.result }) : reply.code(outcome.status).send({ ok: false, error: outcome.error });
  });
  app.route({
    method: ["GET", "PUT", "PATCH", "DELETE"],
    url: "/tools/invoke",
    handler: (_req, reply) => reply.code(405).header("Allow", "POST").type("text/plain; charset=utf-8").send("Method Not Allowed"),
  });
}

/** The fields as OpenClaw reads them; a field of the wrong type is named. */
function readRequest(body: Record<string, unknown>): ToolInvokeRequest | string {
  const request: ToolInvokeRequest = {};
  if (body.dryRun === true) return "dryRun is not supported: the tool would run";
  for (const field of ["name", "tool", "action", "sessionKey", "agentId"] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== "string") return `${field} must be a string`;
    request[field] = value;
  }
  if (body.args !== undefined) {
    if (typeof body.args !== "object" || body.args === null || Array.isArray(body.args)) return "args must be an object";
    request.args = body.args as Record<string, unknown>;
  }
  return request;
}
