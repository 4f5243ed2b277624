import type { FastifyReply, FastifyRequest } from "fastify";
import { attributeIngress, PROXY_ATTRIBUTION_REFUSAL } from "../../ingress-attribution.js";
import { checkHttpAuth } from "./bearer-auth.js";
import { NOT_FOUND, RATE_LIMITED, sendOpenAiError, UNAUTHORIZED } from "./openai-errors.js";
import type { OpenAiRouteDeps } from "./types.js";

/** Routes that only answer 405 carry the methods they would allow. */
export interface GuardRouteConfig {
  allow?: string;
}

/**
 * Runs before the body is read: the enabled flag (read per request, so a hot
 * reload applies to the next call), who the client is (a proxy no `gateway.trustedProxies` entry
 * vouches for is refused), bearer auth and the JSON content type. Refusing here means
 * an unauthenticated client never gets a multi-megabyte body parsed.
 */
export function openAiRequestGuard(deps: OpenAiRouteDeps) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (!deps.enabled()) return reply.code(404).send(NOT_FOUND);
    if ((req.routeOptions.config as GuardRouteConfig).allow) return undefined;

    const ingress = attributeIngress(req.socket.remoteAddress, req.headers, deps.proxies());
    if (ingress.kind === "unattributable-proxy") return reply.code(PROXY_ATTRIBUTION_REFUSAL.status).send(PROXY_ATTRIBUTION_REFUSAL.body);
    const outcome = checkHttpAuth({ socketAddress: req.socket.remoteAddress, headers: req.headers, ingress }, deps.auth(), deps.rateLimiter, deps.proxies());
    if (!outcome.ok) {
      if (outcome.status === 429) return reply.code(429).header("Retry-After", String(outcome.retryAfterSeconds)).send(RATE_LIMITED);
      if (outcome.status === 403) return sendOpenAiError(reply, 403, outcome.message, "permission_error");
      return outcome.message ? sendOpenAiError(reply, 401, outcome.message, "unauthorized") : reply.code(401).send(UNAUTHORIZED);
    }
    if (req.method === "POST" && !isJsonContentType(req.headers["content-type"])) {
      return sendOpenAiError(reply, 415, "Content-Type must be application/json.", "invalid_request_error");
    }
    return undefined;
  };
}

/** `application/json`, parameters (charset) allowed: the only type fastify's JSON parser takes. */
function isJsonContentType(header: string | undefined): boolean {
  return header?.split(";", 1)[0]?.trim().toLowerCase() === "application/json";
}

/** 405 with a plain-text body and `Allow`, as OpenClaw answers a wrong method; clients may depend on it. */
export async function methodNotAllowed(req: FastifyRequest, reply: FastifyReply) {
  const allow = (req.routeOptions.config as GuardRouteConfig).allow ?? "";
  return reply.code(405).header("Allow", allow).type("text/plain; charset=utf-8").send("Method Not Allowed");
}
