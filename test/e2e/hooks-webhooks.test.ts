import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, readIndex, waitUntil } from "../helpers/reliability.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/** `/hooks` webhooks against the built gateway: auth, lockout, body cap, bad bodies, replays, mappings. */

const HOOK_TOKEN = "hook-secret-0123456789";
const servers = useFakeServers();
let gw: GatewayProcess | undefined;

async function start(hooks: Record<string, unknown>, stateDir = makeTempDir("openclaw-hooks-")): Promise<GatewayProcess> {
  gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { hooks }) } }));
  return gw;
}

function post(path: string, body: string | object, headers: Record<string, string> = { authorization: `Bearer ${HOOK_TOKEN}` }) {
  return fetch(`${gw!.httpUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("webhooks", { timeout: 90_000 }, () => {
  it("authenticates by header only and locks an address out after 20 failures", async () => {
    await start({ enabled: true, token: HOOK_TOKEN });
    expect((await post("/hooks/wake", { text: "x" }, {})).status).toBe(401);
    const query = await post(`/hooks/wake?token=${HOOK_TOKEN}`, { text: "x" }, {});
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ ok: false, error: expect.stringMatching(/query string are refused/) });
    expect((await post("/hooks/wake", { text: "hello" }, { "x-openclaw-token": HOOK_TOKEN })).status).toBe(200);
    for (let i = 0; i < 18; i++) expect((await post("/hooks/wake", { text: "x" }, { authorization: "Bearer wrong" })).status).toBe(401);
    const locked = await post("/hooks/wake", { text: "x" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    await waitUntil(() => chatRequests(servers.model).some((r) => JSON.stringify(r.body).includes("hello")), 15_000, "the accepted wake's turn");
  });

  it("a request a proxy forwarded is refused unless gateway.trustedProxies vouches for it; then its client is who gets locked out", async () => {
    const stateDir = makeTempDir("openclaw-hooks-proxy-");
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { hooks: { enabled: true, token: HOOK_TOKEN } }));
    gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const viaProxy = (client: string, token = HOOK_TOKEN) => post("/hooks/wake", { text: "x" }, { authorization: `Bearer ${token}`, "x-forwarded-for": client });
    const refused = await viaProxy("203.0.113.5");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ ok: false, error: expect.stringMatching(/^Proxy client attribution is required\. Configure gateway\.trustedProxies/) });
    await gw.stop();

    config.gateway = { ...config.gateway, trustedProxies: ["127.0.0.1"] };
    gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    for (let i = 0; i < 20; i++) expect((await viaProxy("203.0.113.5", "wrong")).status).toBe(401);
    expect((await viaProxy("203.0.113.5")).status).toBe(429);
    expect((await viaProxy("198.51.100.7")).status).toBe(200);
  });

  it("refuses huge, malformed and non-object bodies, and unknown hooks, without running anything", async () => {
    await start({ enabled: true, token: HOOK_TOKEN, maxBodyBytes: 4096, mappings: [{ match: { path: "alert" }, action: "agent", channel: "telegram", to: "1" }] });
    const huge = await post("/hooks/agent", { message: "x".repeat(10_000) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ ok: false, error: expect.stringMatching(/over 4096 bytes \(hooks.maxBodyBytes\)/) });
    const malformed = await post("/hooks/agent", "{ not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: "the body is not valid JSON" });
    expect((await post("/hooks/agent", "[1,2]")).status).toBe(400);
    expect(await (await post("/hooks/agent", { message: "" })).json()).toMatchObject({ error: "message is required (a non-empty string)" });
    expect(await (await post("/hooks/agent", { message: "m", sessionKey: "agent:main:main" })).json()).toMatchObject({
      error: expect.stringMatching(/hooks.allowRequestSessionKey/),
    });
    expect(await (await post("/hooks/agent", { message: "m", deliver: true, channel: "telegram", to: "1" })).json()).toMatchObject({
      error: expect.stringMatching(/no chat channel is configured/),
    });
    // Naming a chat delivers unless deliver is false (as OpenClaw does), so a chat that cannot work is refused.
    for (const [hook, body] of [
      ["/hooks/agent", { message: "m", channel: "telegram", to: "1" }],
      ["/hooks/alert", { a: 1 }],
    ] as const) {
      const undeliverable = await post(hook, body);
      expect(undeliverable.status, hook).toBe(400);
      expect(await undeliverable.json(), hook).toMatchObject({ ok: false, error: expect.stringMatching(/no chat channel is configured/) });
    }
    const badModel = await post("/hooks/agent", { message: "m", model: "nowhere/some-model" });
    expect(badModel.status).toBe(400);
    expect(await badModel.json()).toMatchObject({ ok: false, error: expect.stringMatching(/^model: Unknown model provider "nowhere".*Known providers: .*\bfake\b/) });
    expect((await post("/hooks/nope", { a: 1 })).status).toBe(404);
    const get = await fetch(`${gw!.httpUrl}/hooks/wake`, { headers: { authorization: `Bearer ${HOOK_TOKEN}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toEqual({ ok: false, error: "webhooks take POST only" });
    for (const hook of ["agent", "wake"]) {
      const ghost = await post(`/hooks/${hook}`, { message: "m", text: "t", agentId: "nobody" });
      expect(ghost.status, hook).toBe(400);
      expect(await ghost.json(), hook).toMatchObject({ ok: false, error: 'unknown agent "nobody"; known agents: main (define it under agents.entries to use it)' });
    }
    expect(fs.existsSync(path.join(gw!.stateDir, "agents", "nobody"))).toBe(false);
    expect(chatRequests(servers.model)).toHaveLength(0);
  });

  it("runs /hooks/agent in a fresh hook session, and a replayed Idempotency-Key runs it once", async () => {
    await start({ enabled: true, token: HOOK_TOKEN });
    servers.model.setResponder((req) => ({ text: `seen: ${lastUserText(req)}` }));
    const headers = { authorization: `Bearer ${HOOK_TOKEN}`, "idempotency-key": "delivery-42" };
    const first = await post("/hooks/agent", { message: "build finished", name: "CI" }, headers);
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({ ok: true, sessionKey: expect.stringMatching(/^agent:main:hook:/) });
    const again = await post("/hooks/agent", { message: "build finished", name: "CI" }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replay")).toBe("true");
    expect(await again.json()).toEqual(body);
    await waitUntil(() => chatRequests(servers.model).length === 1, 15_000, "the hook's turn");
    expect(lastUserText(chatRequests(servers.model)[0]!)).toBe("[Webhook: CI] build finished");
    const other = await post("/hooks/agent", { message: "second" });
    expect((await other.json()).sessionKey).not.toBe(body.sessionKey);
    await waitUntil(() => chatRequests(servers.model).length === 2, 15_000, "the second hook's turn");
    expect(lastUserText(chatRequests(servers.model)[1]!)).toBe("second");
  });

  it("an Idempotency-Key belongs to its hook: the same key on another hook runs it, and replays after a SIGKILL run nothing", async () => {
    const hooks = { enabled: true, token: HOOK_TOKEN, mappings: [{ match: { path: "ci" }, action: "agent", messageTemplate: "CI is {{status}}" }] };
    const stateDir = makeTempDir("openclaw-hooks-keys-");
    await start(hooks, stateDir);
    const headers = { authorization: `Bearer ${HOOK_TOKEN}`, "idempotency-key": "7" };
    const direct = await post("/hooks/agent", { message: "deploy done" }, headers);
    expect(await direct.json()).toMatchObject({ ok: true });
    const mapped = await post("/hooks/ci", { status: "red" }, headers);
    const mappedBody = await mapped.json();
    expect(mappedBody).toMatchObject({ ok: true, runId: expect.any(String) });
    expect(mappedBody.duplicate).toBeUndefined();
    await waitUntil(() => chatRequests(servers.model).length === 2, 15_000, "both hooks' turns");
    expect(chatRequests(servers.model).map(lastUserText).sort()).toEqual(["CI is red", "deploy done"]);
    await gw!.stop("SIGKILL");
    await start(hooks, stateDir);
    for (const [path, body] of [
      ["/hooks/agent", { message: "deploy done" }],
      ["/hooks/ci", { status: "red" }],
    ] as const) {
      const replay = await post(path, body, headers);
      expect(await replay.json(), path).toMatchObject({ ok: true, duplicate: true });
    }
    expect(chatRequests(servers.model)).toHaveLength(2);
  });

  it("a mapping turns a service's payload into an agent turn through its template", async () => {
    await start({
      enabled: true,
      token: HOOK_TOKEN,
      mappings: [
        {
          match: { path: "gmail" },
          action: "agent",
          name: "Gmail",
          sessionKey: "hook:gmail:{{messages[0].id}}",
          messageTemplate: "Mail from {{messages[0].from}}: {{messages[0].subject}}",
        },
      ],
    });
    const res = await post("/hooks/gmail", { messages: [{ id: "m1", from: "ann@example.com", subject: "Lunch?" }] });
    expect(res.status).toBe(200);
    // isolated (the default): the run has a session of its own under the mapping's key.
    expect(await res.json()).toMatchObject({ sessionKey: expect.stringMatching(/^agent:main:hook:gmail:m1:run:[0-9a-f-]{36}$/) });
    await waitUntil(() => chatRequests(servers.model).length === 1, 15_000, "the mapped turn");
    expect(lastUserText(chatRequests(servers.model)[0]!)).toBe("[Webhook: Gmail] Mail from ann@example.com: Lunch?");
  });

  it("a wake mapping's sessionKey template names the session the event goes to", async () => {
    const stateDir = makeTempDir("openclaw-hooks-");
    const hooks = {
      enabled: true,
      token: HOOK_TOKEN,
      mappings: [{ match: { path: "deploy" }, action: "wake", sessionKey: "hook:deploy:{{id}}", messageTemplate: "deploy {{id}} finished" }],
    };
    const agents = { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" }, heartbeat: { every: "0m" } } };
    gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { hooks, agents }) } }));
    expect((await post("/hooks/deploy", { id: 42 })).status).toBe(200);
    await waitUntil(() => chatRequests(servers.model).length === 1, 15_000, "the wake turn");
    expect(lastUserText(chatRequests(servers.model)[0]!)).toContain("deploy 42 finished");
    await waitUntil(() => "agent:main:hook:deploy:42" in readIndex(stateDir), 15_000, "the mapped session");
    expect(Object.keys(readIndex(stateDir))).not.toContain("agent:main:main");
  });

  it("a sessionKey that names an agent the config does not define is a 400 naming the known agents, and nothing is written", async () => {
    const hooks = {
      enabled: true,
      token: HOOK_TOKEN,
      allowRequestSessionKey: true,
      mappings: [{ match: { path: "ghost" }, action: "agent", sessionKey: "agent:ghost:hook:{{id}}" }],
    };
    await start(hooks);
    for (const [hook, body] of [
      ["/hooks/wake", { text: "t", sessionKey: "agent:nobody:main" }],
      ["/hooks/agent", { message: "m", sessionKey: "agent:nobody:hook:x" }],
      ["/hooks/ghost", { id: 1 }],
    ] as const) {
      const res = await post(hook, body);
      expect(res.status, hook).toBe(400);
      expect(await res.json(), hook).toMatchObject({ ok: false, error: expect.stringMatching(/^unknown agent "(nobody|ghost)"; known agents: main/) });
    }
    for (const agent of ["nobody", "ghost"]) expect(fs.existsSync(path.join(gw!.stateDir, "agents", agent)), agent).toBe(false);
    expect(chatRequests(servers.model)).toHaveLength(0);
  });

  it("hooks.allowedAgentIds: a webhook may run or wake only the agents it lists, the default agent included when it names none", async () => {
    const stateDir = makeTempDir("openclaw-hooks-agents-");
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { hooks: { enabled: true, token: HOOK_TOKEN, allowRequestSessionKey: true, allowedAgentIds: ["ops"] } }));
    config.agents.entries = { main: { default: true }, ops: {} };
    gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    servers.model.setResponder(() => ({ text: "handled" }));
    const refused = 'agentId is not allowed by hooks.allowedAgentIds: webhooks may reach ops, not "main" (add it there to let them)';
    for (const [hook, body] of [
      ["/hooks/agent", { message: "m" }],
      ["/hooks/agent", { message: "m", agentId: "main" }],
      ["/hooks/agent", { message: "m", sessionKey: "agent:main:hook:x" }],
      ["/hooks/wake", { text: "t" }],
    ] as const) {
      const res = await post(hook, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json(), JSON.stringify(body)).toEqual({ ok: false, error: refused });
    }
    expect(chatRequests(servers.model)).toHaveLength(0);
    const allowed = await post("/hooks/agent", { message: "m", agentId: "ops" });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ ok: true, sessionKey: expect.stringMatching(/^agent:ops:hook:/) });
  });

  it("hooks.defaultSessionKey names the session of requests and agent mappings that name none: isolated runs each start their own under it, persistent ones share it (as OpenClaw)", async () => {
    await start({
      enabled: true,
      token: HOOK_TOKEN,
      defaultSessionKey: "hook:inbox",
      mappings: [
        { match: { path: "ping" }, action: "agent", messageTemplate: "ping {{n}}" },
        { match: { path: "keep" }, action: "agent", messageTemplate: "keep {{n}}", sessionMode: "persistent" },
      ],
    });
    const ownSession = /^agent:main:hook:inbox:run:[0-9a-f-]{36}$/;
    const mapped = (await (await post("/hooks/ping", { n: 1 })).json()) as { sessionKey: string };
    expect(mapped.sessionKey).toMatch(ownSession);
    await waitUntil(() => chatRequests(servers.model).length === 1, 15_000, "the mapped turn");
    const direct = (await (await post("/hooks/agent", { message: "pong" })).json()) as { sessionKey: string };
    expect(direct.sessionKey).toMatch(ownSession);
    expect(direct.sessionKey).not.toBe(mapped.sessionKey);
    await waitUntil(() => chatRequests(servers.model).length === 2, 15_000, "the /hooks/agent turn");
    expect(JSON.stringify(chatRequests(servers.model)[1]!.body)).not.toContain("ping 1");

    // One after the other: a message arriving while the first runs would be steered into its turn.
    for (const [hook, body, turns] of [
      ["/hooks/keep", { n: 1 }, 3],
      ["/hooks/agent", { message: "keep 2", sessionMode: "persistent" }, 4],
    ] as const) {
      expect(await (await post(hook, body)).json()).toMatchObject({ ok: true, sessionKey: "agent:main:hook:inbox" });
      await waitUntil(() => chatRequests(servers.model).length === turns, 15_000, `persistent turn ${turns - 2}`);
    }
    const shared = JSON.stringify(chatRequests(servers.model)[3]!.body);
    expect(shared).toContain("keep 1");
    expect(shared).toContain("keep 2");
    expect(shared).not.toContain("pong");
  });

  it("/hooks/wake hands the text to the agent now; with hooks disabled the routes do not exist", async () => {
    await start({ enabled: true, token: HOOK_TOKEN });
    servers.model.setResponder(() => ({ text: "HEARTBEAT_OK" }));
    expect((await post("/hooks/wake", { text: "the deploy finished", mode: "now" })).status).toBe(200);
    await waitUntil(() => chatRequests(servers.model).some((r) => JSON.stringify(r.body).includes("the deploy finished")), 15_000, "the wake turn");
    await gw!.stop("SIGKILL");
    await start({ enabled: false, token: HOOK_TOKEN });
    expect((await post("/hooks/wake", { text: "x" })).status).toBe(404);
  });
});
