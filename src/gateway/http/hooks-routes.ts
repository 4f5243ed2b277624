import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { runReplyText, type ConversationPort } from "../../agents/conversation-port.js";
import { checkModelChoice } from "../../agents/session-controls.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { ChatRoute, CronChannelPort } from "../../cron/ports.js";
import { readHookRequest, HookRequestError, type AgentRequest, type WakeRequest } from "../../hooks/webhooks/hook-requests.js";
import { ReplayCache } from "../../hooks/webhooks/replay-cache.js";
import type { Logger } from "../../infra/logger.js";
import { AuthRateLimiter } from "../auth/rate-limiter.js";
import { secretsEqual } from "../auth/secret-compare.js";
import { attributeIngress, PROXY_ATTRIBUTION_MESSAGE, proxySettingsOf } from "../ingress-attribution.js";
import { unknownAgentRefusal } from "../../agents/known-agent.js";
import { buildWebhookRunSessionKey } from "../../sessions/keys/index.js";
import { stability } from "../../infra/stability/stability-recorder.js";

export const DEFAULT_HOOKS_PATH = "/hooks";
export const DEFAULT_HOOKS_MAX_BODY_BYTES = 256 * 1024;

export interface HooksRouteDeps {
  config: () => OpenClawConfig;
  conversations: Pick<ConversationPort, "submit" | "resolveSessionKey">;
  /** A system event for an agent's heartbeat (the `wake` method's rule). */
  wake: (target: { sessionKey: string; agentId: string }, text: string, mode: "now" | "next-heartbeat", key?: string) => Promise<{ duplicate?: true }>;
  channels: () => CronChannelPort | undefined;
  logger: Logger;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * `POST <hooks.path>/wake`, `/agent` and `/<mapping>` (docs/automation.md#webhooks): outside
 * services poke the gateway. Only `Authorization: Bearer <hooks.token>` or `x-openclaw-token`
 * authenticate; 20 failures in a minute lock the address out for a minute. A repeated
 * `Idempotency-Key` gets the first answer and runs nothing again. The path and the body cap are
 * read at start; `hooks.enabled` and the rest apply on reload.
 */
export function registerHooksRoutes(app: FastifyInstance, deps: HooksRouteDeps): void {
  const hooksAtStart = deps.config().hooks;
  const base = (hooksAtStart?.path ?? DEFAULT_HOOKS_PATH).replace(/\/+$/, "");
  const bodyLimit = hooksAtStart?.maxBodyBytes ?? DEFAULT_HOOKS_MAX_BODY_BYTES;
  const lockouts = new AuthRateLimiter({ maxAttempts: 20, windowMs: 60_000, lockoutMs: 60_000, exemptLoopback: false });
  const replays = new ReplayCache<Answer>();
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      if (error.statusCode === 413) {
        stability.record("payload.large", { surface: "gateway.http.hooks", action: "rejected", limitBytes: bodyLimit, reason: "body_limit" });
        return reply.code(413).send({ ok: false, error: `the body is over ${bodyLimit} bytes (hooks.maxBodyBytes)` });
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) deps.logger.error({ err: error.message }, "webhook request failed");
      return reply.code(status).send({ ok: false, error: status === 500 ? "internal error" : error.message });
    });
    scope.post(`${base}/:name`, async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
      const hooks = deps.config().hooks;
      if (!hooks?.enabled || !hooks.token) return reply.callNotFound();
      const answer = await handle(request, hooks, deps, lockouts, replays);
      for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
      return reply.code(answer.status).send(answer.body);
    });
    // Webhooks are POSTs only; any other method is told so, in the hooks' error shape.
    scope.route({
      method: ["GET", "PUT", "PATCH", "DELETE"],
      url: `${base}/:name`,
      handler: async (_request, reply) => {
        const hooks = deps.config().hooks;
        if (!hooks?.enabled || !hooks.token) return reply.callNotFound();
        return reply.code(405).header("allow", "POST").send({ ok: false, error: "webhooks take POST only" });
      },
    });
  });
}

async function handle(
  request: FastifyRequest<{ Params: { name: string } }>,
  hooks: NonNullable<OpenClawConfig["hooks"]>,
  deps: HooksRouteDeps,
  lockouts: AuthRateLimiter,
  replays: ReplayCache<Answer>,
): Promise<Answer & { headers?: Record<string, string> }> {
  const ingress = attributeIngress(request.socket.remoteAddress, request.headers, proxySettingsOf(deps.config()));
  if (ingress.kind === "unattributable-proxy") return { status: 403, body: { ok: false, error: PROXY_ATTRIBUTION_MESSAGE } };
  const address = ingress.clientIp;
  const retryAfterMs = lockouts.retryAfterMs(address);
  if (retryAfterMs > 0) {
    return { status: 429, body: { ok: false, error: "too many failed authentications; try again later" }, headers: { "retry-after": String(Math.ceil(retryAfterMs / 1000)) } };
  }
  if (/[?&](token|access_token)=/.test(request.url)) {
    lockouts.recordFailure(address);
    return { status: 400, body: { ok: false, error: "tokens in the query string are refused: send Authorization: Bearer <hooks.token> or x-openclaw-token" } };
  }
  const presented = bearerOf(request.headers.authorization) ?? headerValue(request.headers["x-openclaw-token"]);
  if (!presented || !secretsEqual(presented, hooks.token!)) {
    lockouts.recordFailure(address);
    return { status: 401, body: { ok: false, error: "unauthorized: send Authorization: Bearer <hooks.token> or x-openclaw-token" } };
  }
  const idempotencyKey = headerValue(request.headers["idempotency-key"]);
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 200)) {
    return { status: 400, body: { ok: false, error: "Idempotency-Key must be 1-200 characters" } };
  }
  const replayKey = idempotencyKey ? `${request.params.name}\u0000${idempotencyKey}` : undefined;
  const earlier = replayKey ? replays.get(replayKey) : undefined;
  if (earlier) return { ...earlier, headers: { "idempotent-replay": "true" } };
  let body: unknown;
  const raw = Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "";
  try {
    body = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    return { status: 400, body: { ok: false, error: "the body is not valid JSON" } };
  }
  let answer: Answer;
  try {
    const hookRequest = readHookRequest(request.params.name, body, hooks);
    // The run's ledger key names the hook, as the replay key does: one key on two hooks is two requests.
    const runKey = idempotencyKey ? `hook:${request.params.name}:${idempotencyKey}` : undefined;
    if (hookRequest.kind === "wake") {
      const woken = await runWake(hookRequest, deps, runKey);
      // A wake's key is kept on disk with its event: a repeat after a restart gets the first answer.
      if (woken.duplicate) return { ...woken.answer, headers: { "idempotent-replay": "true" } };
      answer = woken.answer;
    } else {
      answer = await runAgent(hookRequest, hooks, deps, runKey);
    }
  } catch (err) {
    if (err instanceof HookRequestError) return { status: err.status, body: { ok: false, error: err.message } };
    throw err;
  }
  if (replayKey && answer.status < 500) replays.set(replayKey, answer);
  return answer;
}

async function runWake(request: WakeRequest, deps: HooksRouteDeps, runKey: string | undefined): Promise<{ answer: Answer; duplicate: boolean }> {
  const target = resolve(deps, request.sessionKey, request.agentId);
  const woken = await deps.wake(target, request.text, request.mode, runKey);
  return { answer: { status: 200, body: { ok: true, mode: request.mode } }, duplicate: woken.duplicate === true };
}

async function runAgent(request: AgentRequest, hooks: NonNullable<OpenClawConfig["hooks"]>, deps: HooksRouteDeps, runKey: string | undefined): Promise<Answer> {
  const { sessionKey, agentId } = resolve(deps, runSessionKey(request, hooks), request.agentId);
  if (request.model) {
    const model = checkModelChoice(request.model, agentId, deps.config(), process.env);
    if (!model.ok) throw new HookRequestError(400, `model: ${model.message}`);
  }
  const route = request.deliver ? deliveryRoute(request, deps, agentId) : undefined;
  const outcome = await deps.conversations.submit({
    message: request.name ? `[Webhook: ${request.name}] ${request.message}` : request.message,
    sessionKey,
    agentId,
    method: "http",
    senderIsOwner: false,
    idempotencyKey: runKey ?? `hook:${randomUUID()}`,
    turnSettings: {
      ...(request.model ? { modelOverride: request.model } : {}),
      ...(request.thinking ? { thinkingLevel: request.thinking } : {}),
      ...(request.timeoutSeconds !== undefined ? { timeoutSeconds: request.timeoutSeconds } : {}),
    },
  });
  if (outcome.kind === "rejected") return { status: 409, body: { ok: false, error: outcome.notice, runId: outcome.runId } };
  if (outcome.kind === "duplicate") return { status: 200, body: { ok: true, runId: outcome.runId, sessionKey: outcome.sessionKey, duplicate: true } };
  const run = outcome.run;
  if (route) {
    void run.done
      .then(async (ended) => {
        const text = runReplyText(ended);
        if (ended.status !== "ok" || !text) return;
        await deps.channels()!.send(route, text, `hook:${run.runId}`);
      })
      .catch((err) => deps.logger.warn({ runId: run.runId, err: (err as Error).message }, "webhook run's reply not delivered"));
  }
  return { status: 200, body: { ok: true, runId: run.runId, sessionKey } };
}

/**
 * The session a hook's agent run goes to. Without a named key (the request's or the mapping's,
 * else hooks.defaultSessionKey) a fresh `hook:<uuid>`; with one, `persistent` runs share that
 * session, and `isolated` runs (the default, as in OpenClaw) each start one of their own under it,
 * `<key>:run:<uuid>`, so no run sees an earlier run's messages.
 */
function runSessionKey(request: AgentRequest, hooks: NonNullable<OpenClawConfig["hooks"]>): string {
  const named = request.sessionKey ?? hooks.defaultSessionKey;
  return named !== undefined && request.sessionMode === "persistent" ? named : buildWebhookRunSessionKey(named);
}

/** Where a delivering request's reply goes; a route that cannot work is a 400 before anything runs. */
function deliveryRoute(request: AgentRequest, deps: HooksRouteDeps, agentId: string): ChatRoute {
  const channels = deps.channels();
  if (!channels) throw new HookRequestError(400, "deliver: no chat channel is configured on this gateway");
  let route: ChatRoute | undefined;
  if (request.channel && request.channel !== "last") {
    if (!request.to) throw new HookRequestError(400, `deliver: channel ${request.channel} needs to (the chat)`);
    route = { channel: request.channel, to: request.to };
  } else {
    route = channels.lastRoute(deps.conversations.resolveSessionKey(undefined, agentId).sessionKey);
    if (!route) throw new HookRequestError(400, 'deliver: channel "last" but the main session has no chat yet; give channel and to');
    if (request.to) route.to = request.to;
  }
  if (request.accountId) route.accountId = request.accountId;
  const check = channels.check(route);
  if (!check.ok) throw new HookRequestError(400, `deliver: ${check.reason}`);
  return route;
}

/**
 * The session and agent a request targets: an agent the config does not define is refused, and so
 * is one `hooks.allowedAgentIds` does not list (the effective agent: named, its key's, or the default).
 */
function resolve(deps: HooksRouteDeps, sessionKey: string | undefined, agentId: string | undefined): { sessionKey: string; agentId: string } {
  const refusal = unknownAgentRefusal(deps.config(), agentId);
  if (refusal) throw new HookRequestError(400, refusal);
  let resolved: { sessionKey: string; agentId: string };
  try {
    resolved = deps.conversations.resolveSessionKey(sessionKey, agentId);
  } catch (err) {
    throw new HookRequestError(400, (err as Error).message);
  }
  // A key such as `agent:<id>:…` names its agent too: one the config does not define is refused.
  const keyRefusal = unknownAgentRefusal(deps.config(), resolved.agentId);
  if (keyRefusal) throw new HookRequestError(400, keyRefusal);
  const allowed = deps.config().hooks?.allowedAgentIds;
  if (allowed && !allowed.some((id) => id.trim() === "*" || id.trim().toLowerCase() === resolved.agentId)) {
    const listed = allowed.length > 0 ? allowed.join(", ") : "none";
    throw new HookRequestError(400, `agentId is not allowed by hooks.allowedAgentIds: webhooks may reach ${listed}, not "${resolved.agentId}" (add it there to let them)`);
  }
  return resolved;
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match?.[1]?.trim() || undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
