import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { makeFastTempDir, removeFastTempDirs, waitUntil } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator, type Frame } from "../helpers/ws-client.js";

/**
 * `modelPolicy.allow` through the built gateway: a model outside the agent's allowlist is refused
 * by sessions.patch and /model before anything runs, exact refs and `provider/*` prefixes are
 * allowed, an agent's own list replaces the defaults' one, and models.list shows only what it allows.
 */

const TOKEN = "model-policy-e2e-token";
let server: FakeModelServer;
let gw: GatewayProcess;
let rpc: Rpc;
const events: Frame[] = [];

beforeAll(async () => {
  server = await startFakeModelServer({ models: ["a1", "a2", "b1", "vendor/g1"] });
  const stateDir = makeFastTempDir("openclaw-model-policy-");
  const provider = (models: string[]) => ({ baseUrl: `${server.url}/v1`, apiKey: "sk-fake-0000", api: "openai-completions", models: models.map((id) => ({ id })) });
  const config = {
    agents: {
      defaults: { workspace: path.join(stateDir, "ws"), model: "alpha/a1", modelPolicy: { allow: ["alpha/a2", "beta/*"] } },
      entries: { main: { default: true }, ops: { modelPolicy: { allow: ["gamma/vendor/*"] } } },
    },
    models: { providers: { alpha: provider(["a1", "a2"]), beta: provider(["b1"]), gamma: provider(["vendor/g1"]) } },
  };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  gw = await startGateway({ stateDir, token: TOKEN });
  rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
  rpc.onEvent((f) => {
    if (f.event === "chat") events.push(f);
  });
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

const posts = () => server.requests.filter((r) => r.method === "POST");

async function turn(sessionKey: string, message: string): Promise<void> {
  const runId = randomUUID();
  const res = await rpc.request("chat.send", { sessionKey, message, idempotencyKey: runId });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  await waitUntil(() => events.some((f) => f.payload.runId === runId && f.payload.state === "final"), 20_000, `the end of ${runId}`);
}

async function override(key: string): Promise<string | undefined> {
  const res = await rpc.request("sessions.describe", { key });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload.session.entry.modelOverride;
}

describe("modelPolicy.allow", () => {
  it("sessions.patch refuses a model outside agents.defaults.modelPolicy.allow and changes nothing; exact refs and provider/* pass", async () => {
    const key = "agent:main:policy-patch";
    server.enqueue({ text: "hello" });
    await turn(key, "create me");
    const bad = await rpc.request("sessions.patch", { key, model: "gamma/vendor/g1" });
    expect(bad.ok).toBe(false);
    expect(bad.error.message).toBe(
      'Model "gamma/vendor/g1" is not allowed for agent "main" by agents.defaults.modelPolicy.allow (allows: alpha/a2, beta/*). Add "gamma/vendor/g1" or "gamma/*" to agents.defaults.modelPolicy.allow, or pick an allowed model (/model list).',
    );
    expect(await override(key)).toBeUndefined();

    expect((await rpc.request("sessions.patch", { key, model: "alpha/a2" })).ok).toBe(true);
    expect(await override(key)).toBe("alpha/a2");
    const ok = await rpc.request("sessions.patch", { key, model: "beta/b1" });
    expect(ok.ok, JSON.stringify(ok.error)).toBe(true);
    const before = posts().length;
    server.enqueue({ text: "from b1" });
    await turn(key, "which model?");
    expect(
      posts()
        .slice(before)
        .map((r) => r.body.model),
    ).toEqual(["b1"]);
  });

  it("/model refuses a disallowed model with the same message; /model list shows only allowed models", async () => {
    const key = "agent:main:policy-command";
    const send = async (message: string) => (await rpc.request("chat.send", { sessionKey: key, message, idempotencyKey: randomUUID() })).payload.reply as string;
    expect(await send("/model gamma/vendor/g1")).toContain('Model "gamma/vendor/g1" is not allowed for agent "main" by agents.defaults.modelPolicy.allow');
    expect(await send("/new gamma/vendor/g1")).toContain('Model "gamma/vendor/g1" is not allowed');
    expect(await send("/model beta/b1")).toContain("Model for this session: beta/b1");
    const list = await send("/model list");
    expect(list).toContain("alpha/a1");
    expect(list).toContain("alpha/a2");
    expect(list).toContain("beta/b1");
    expect(list).not.toContain("gamma/vendor/g1");
  });

  it("an agent's own modelPolicy.allow replaces the defaults' one; its configured model stays allowed", async () => {
    const key = "agent:ops:policy-agent";
    server.enqueue({ text: "ops here" });
    await turn(key, "create me");
    const bad = await rpc.request("sessions.patch", { key, model: "beta/b1" });
    expect(bad.error.message).toContain('Model "beta/b1" is not allowed for agent "ops" by agents.entries.ops.modelPolicy.allow (allows: gamma/vendor/*)');
    expect(await override(key)).toBeUndefined();
    expect((await rpc.request("sessions.patch", { key, model: "gamma/vendor/g1" })).ok).toBe(true);
    expect((await rpc.request("sessions.patch", { key, model: "alpha/a1" })).ok).toBe(true);
  });

  it("cron.add checks payload model and fallbacks against the job's agent's allowlist", async () => {
    const job = (payload: Record<string, unknown>, agentId?: string) => ({
      name: "policy",
      schedule: { kind: "every", every: "1h" },
      sessionTarget: "isolated",
      ...(agentId ? { agentId } : {}),
      payload: { kind: "agentTurn", message: "m", ...payload },
    });
    const refused = await rpc.request("cron.add", job({ model: "beta/b1", fallbacks: ["gamma/vendor/g1"] }));
    expect(refused.error.message).toMatch(/^payload\.fallbacks\[0\]: Model "gamma\/vendor\/g1" is not allowed for agent "main" by agents\.defaults\.modelPolicy\.allow/);
    const forOps = await rpc.request("cron.add", job({ model: "beta/b1" }, "ops"));
    expect(forOps.error.message).toMatch(/^payload\.model: Model "beta\/b1" is not allowed for agent "ops" by agents\.entries\.ops\.modelPolicy\.allow/);
    expect((await rpc.request("cron.list", {})).payload.jobs).toEqual([]);
    const added = await rpc.request("cron.add", job({ model: "gamma/vendor/g1" }, "ops"));
    expect(added.ok, JSON.stringify(added.error)).toBe(true);
    expect((await rpc.request("cron.remove", { id: added.payload.id })).ok).toBe(true);
  });

  it("models.list (default view) lists only the agent's allowed models; view all lists every configured one", async () => {
    const refs = async (params: object) => ((await rpc.request("models.list", params)).payload.models as { ref: string }[]).map((m) => m.ref).sort();
    expect(await refs({})).toEqual(["alpha/a1", "alpha/a2", "beta/b1"]);
    expect(await refs({ view: "default", agentId: "ops" })).toEqual(["alpha/a1", "gamma/vendor/g1"]);
    expect(await refs({ view: "all" })).toEqual(["alpha/a1", "alpha/a2", "beta/b1", "gamma/vendor/g1"]);
  });
});
