import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { makeFastTempDir, messageText, removeFastTempDirs, waitUntil } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator, type Frame } from "../helpers/ws-client.js";

/**
 * Issue 16, model resilience through the built gateway: a primary provider with two keys (OpenAI
 * wire) and a backup (Anthropic wire), both fake servers answering scripted failures. Each
 * failure must lead to the documented next step (docs/models.md) — never a lost user message, a
 * duplicated reply or a stuck lane.
 */

const TOKEN = "failover-e2e-token";
const KEY_A = "sk-primary-aaaa-111111";
const KEY_B = "sk-primary-bbbb-222222";
const BACKUP_KEY = "sk-backup-cccc-333333";
let primary: FakeModelServer;
let backup: FakeModelServer;
let stateDir: string;
let gw: GatewayProcess;
let rpc: Rpc;
const events: Frame[] = [];
/** Profile ids the 429 test left resting for m1 (read back after the restart). */
let rateLimited: string[] = [];

const ENV = { PRIMARY_API_KEYS: `${KEY_A},${KEY_B}`, BACKUP_API_KEY: BACKUP_KEY };

function writeConfig(dir: string): void {
  const config = {
    agents: {
      defaults: {
        workspace: path.join(dir, "ws"),
        model: { primary: "primary/m1", fallbacks: ["backup/m2"] },
        models: { "primary/m1": { params: { temperature: 0.2 } }, "backup/m2": { alias: "spare", params: { cacheRetention: "long" } } },
        params: { temperature: 0.9, top_p: 0.5, seed: 1 },
      },
      entries: {
        main: { models: { "primary/m1": { params: { seed: 7, extra_body: { top_k: 20 } } } }, params: { top_p: 0.8, chat_template_kwargs: { enable_thinking: false } } },
      },
    },
    models: {
      providers: {
        primary: { baseUrl: `${primary.url}/v1`, api: "openai-completions", timeoutSeconds: 2, models: [{ id: "m1", reasoning: true, maxTokens: 2048 }] },
        backup: { baseUrl: backup.url, api: "anthropic-messages", models: [{ id: "m2", maxTokens: 1024 }] },
      },
    },
  };
  fs.writeFileSync(path.join(dir, "openclaw.json"), JSON.stringify(config));
}

async function boot(): Promise<void> {
  gw = await startGateway({ stateDir, token: TOKEN, env: ENV });
  rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
  rpc.onEvent((f) => {
    if (f.event === "chat") events.push(f);
  });
}

beforeAll(async () => {
  [primary, backup] = await Promise.all([startFakeModelServer({ models: ["m1"] }), startFakeModelServer({ models: ["m2"] })]);
  stateDir = makeFastTempDir("openclaw-failover-");
  writeConfig(stateDir);
  await boot();
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await Promise.all([primary?.close(), backup?.close()]);
  removeFastTempDirs();
});
beforeEach(() => {
  primary.reset();
  backup.reset();
});

const calls = (server: FakeModelServer): RecordedRequest[] => server.requests.filter((r) => r.method === "POST");
const keyOf = (r: RecordedRequest) => String(r.headers.authorization ?? r.headers["x-api-key"] ?? "");
const terminalsOf = (runId: string) => events.filter((f) => f.payload.runId === runId && ["final", "error", "aborted"].includes(f.payload.state)).map((f) => f.payload);

async function turn(sessionKey: string, message: string, runId: string): Promise<any> {
  const res = await rpc.request("chat.send", { sessionKey, message, idempotencyKey: runId });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  await waitUntil(() => terminalsOf(runId).length > 0, 20_000, `the end of ${runId}`);
  // Exactly one terminal event: no duplicated reply.
  expect(terminalsOf(runId)).toHaveLength(1);
  return terminalsOf(runId)[0];
}

async function historyRows(sessionKey: string): Promise<string[]> {
  const history = await rpc.request("chat.history", { sessionKey });
  return history.payload.messages.map((m: any) => `${m.role}:${messageText(m)}`);
}

async function sessionRow(sessionKey: string): Promise<any> {
  const res = await rpc.request("sessions.describe", { key: sessionKey });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload.session.entry;
}

describe("failover through the gateway", () => {
  it("HTTP 500 from the primary → the backup answers once; the next turn is back on the primary", async () => {
    primary.enqueue({ status: 500 });
    backup.enqueue({ text: "backup answered" });
    const final = await turn("fo-500", "first question", "fo-500-1");
    expect(final.state).toBe("final");
    expect(messageText(final.message)).toBe("backup answered");
    expect(calls(primary)).toHaveLength(1);
    expect(calls(backup)).toHaveLength(1);
    // The row is written just after the terminal event; agent.wait returns once it is.
    await rpc.request("agent.wait", { runId: "fo-500-1", timeoutMs: 5_000 });
    expect((await sessionRow("agent:main:fo-500")).model).toBe("backup/m2");

    primary.enqueue({ text: "primary again" });
    const next = await turn("fo-500", "second question", "fo-500-2");
    expect(messageText(next.message)).toBe("primary again");
    expect(await historyRows("fo-500")).toEqual(["user:first question", "assistant:backup answered", "user:second question", "assistant:primary again"]);
    // params of primary/m1 are sent with its requests, layered: agents.defaults.params, then
    // agents.defaults.models.<ref>.params, then the agent's models.<ref>.params, then its params.
    expect(calls(primary).at(-1)!.body).toMatchObject({ temperature: 0.2, seed: 7, top_p: 0.8, top_k: 20, chat_template_kwargs: { enable_thinking: false } });
    // The Anthropic backup's params asked for the 1-hour prompt cache.
    expect(calls(backup).at(-1)!.body.system[0].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
  });

  it("529 overloaded on both keys → one rotation, then the backup", async () => {
    primary.setResponder(() => ({ status: 529, body: { error: { message: "Overloaded", type: "overloaded_error" } } }));
    backup.enqueue({ text: "not overloaded" });
    const final = await turn("fo-529", "hi", "fo-529-1");
    expect(messageText(final.message)).toBe("not overloaded");
    expect(calls(primary).map(keyOf).sort()).toEqual([`Bearer ${KEY_A}`, `Bearer ${KEY_B}`]);
  });

  it("a malformed stream → the backup; a stream cut after text began → one error, no second answer, the session still works", async () => {
    primary.enqueue({ malformed: "garbage" });
    backup.enqueue({ text: "clean answer" });
    expect(messageText((await turn("fo-bad", "one", "fo-bad-1")).message)).toBe("clean answer");

    primary.enqueue({ malformed: "truncated" });
    const cut = await turn("fo-bad", "two", "fo-bad-2");
    expect(cut.state).toBe("error");
    expect(calls(backup)).toHaveLength(1);

    primary.enqueue({ text: "fine now" });
    expect(messageText((await turn("fo-bad", "three", "fo-bad-3")).message)).toBe("fine now");
    const rows = await historyRows("fo-bad");
    expect(rows.filter((r) => r.startsWith("user:"))).toEqual(["user:one", "user:two", "user:three"]);
  });

  it("a hang past the provider timeout → the backup answers, and the lane is free for the next message", async () => {
    primary.enqueue({ text: "far too late", delayMs: 8_000 });
    backup.enqueue({ text: "on time" }, { text: "still on time" });
    expect(messageText((await turn("fo-hang", "are you there", "fo-hang-1")).message)).toBe("on time");
    // The timed-out key rests: the next turn uses the other key first (or the backup when both rest).
    primary.enqueue({ text: "other key" });
    const next = await turn("fo-hang", "again", "fo-hang-2");
    expect(["other key", "still on time"]).toContain(messageText(next.message));
  });

  it("429 with retry-after 120 on every primary key → backup at once; the cooldowns are on disk (0600) and shown masked by `models status`", async () => {
    primary.setResponder(() => ({ status: 429, headers: { "retry-after": "120" } }));
    backup.enqueue({ text: "rate-limit dodged" });
    const started = Date.now();
    expect(messageText((await turn("fo-429", "hello", "fo-429-1")).message)).toBe("rate-limit dodged");
    expect(Date.now() - started).toBeLessThan(20_000);

    const file = path.join(stateDir, "agents", "main", "agent", "auth-profiles.json");
    await waitUntil(() => fs.existsSync(file) && /rate_limit/.test(fs.readFileSync(file, "utf8")), 5_000, "auth-profiles.json with the cooldowns");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain(KEY_A);

    const status = await runCli(["models", "status", "--json"], { OPENCLAW_STATE_DIR: stateDir, ...ENV });
    expect(status.code, status.output).toBe(0);
    const parsed = JSON.parse(status.output.slice(status.output.indexOf("{")));
    expect(parsed.chain.map((c: any) => c.ref)).toEqual(["primary/m1", "backup/m2"]);
    const keys = parsed.providers.primary;
    // A key may already rest from the hang above (timeout); the other got the 429.
    expect(keys.map((k: any) => k.state)).toEqual(["cooldown", "cooldown"]);
    rateLimited = keys.filter((k: any) => k.reason === "rate_limit" && k.model === "m1").map((k: any) => k.id);
    expect(rateLimited.length).toBeGreaterThan(0);
    expect(keys.every((k: any) => /^sk-…\S{4}$/.test(k.secret))).toBe(true);
    expect(status.output).not.toContain(KEY_A);
    // Bare `openclaw models` is `models status`, as in OpenClaw.
    const bare = await runCli(["models", "--json"], { OPENCLAW_STATE_DIR: stateDir, ...ENV });
    expect(bare.code, bare.output).toBe(0);
    expect(JSON.parse(bare.output.slice(bare.output.indexOf("{"))).chain).toEqual(parsed.chain);
    expect(status.output).not.toContain(KEY_B);
    expect(status.output).not.toContain(BACKUP_KEY);
  });

  it("a restart remembers the cooldowns: the resting primary keys are skipped", async () => {
    rpc.sock.close();
    await gw.stop();
    await boot();
    // A key that rested only for the short timeout cooldown may be free again; it then fails here.
    primary.setResponder(() => ({ status: 500 }));
    backup.enqueue({ text: "after restart" });
    expect(messageText((await turn("fo-restart", "hi", "fo-restart-1")).message)).toBe("after restart");
    const secretOf: Record<string, string> = { "primary:env-list-1": KEY_A, "primary:env-list-2": KEY_B };
    const used = calls(primary).map(keyOf);
    for (const id of rateLimited) expect(used).not.toContain(`Bearer ${secretOf[id]}`);
  });

  it("sessions.patch model is strict and applies to the next turn; a bad model is refused and changes nothing", async () => {
    const key = "agent:main:fo-strict";
    backup.enqueue({ text: "first" });
    await turn("fo-strict", "create me", "fo-strict-1");
    const bad = await rpc.request("sessions.patch", { key, model: "nowhere/x" });
    expect(bad.ok).toBe(false);
    expect(bad.error.message).toMatch(/Unknown model provider "nowhere"/);
    expect((await sessionRow(key)).modelOverride).toBeUndefined();

    const ok = await rpc.request("sessions.patch", { key, model: "backup/m2", thinkingLevel: "high" });
    expect(ok.ok, JSON.stringify(ok.error)).toBe(true);
    backup.setResponder(() => ({ status: 500 }));
    const failed = await turn("fo-strict", "strict please", "fo-strict-2");
    expect(failed.state).toBe("error");
    expect(calls(primary)).toHaveLength(0);
  });
});

describe("aliases", () => {
  it("sessions.patch takes an alias in any case, as OpenClaw matches them, and stores the model it names", async () => {
    const key = "agent:main:fo-alias";
    backup.enqueue({ text: "made" });
    await turn("fo-alias", "make the session", "fo-alias-1");
    const ok = await rpc.request("sessions.patch", { key, model: " Spare " });
    expect(ok.ok, JSON.stringify(ok.error)).toBe(true);
    expect((await sessionRow(key)).modelOverride).toBe("backup/m2");
  });
});

describe("thinking levels reach the wire", () => {
  it("sessions.patch thinkingLevel high → reasoning_effort high on the reasoning model", async () => {
    // The cooldowns of the tests above are over for this model only after minutes: use a fresh session on a fresh state.
    const key = "agent:main:fo-think";
    backup.enqueue({ text: "made" });
    await turn("fo-think", "make the session", "fo-think-1");
    expect((await rpc.request("sessions.patch", { key, thinkingLevel: "high" })).ok).toBe(true);
    const bad = await rpc.request("sessions.patch", { key, thinkingLevel: "enormous" });
    expect(bad.ok).toBe(false);
    expect(bad.error.message).toContain("Unknown thinking level");
    // The primary keys rest (429 above): the strict choice of primary/m1 probes one anyway.
    expect((await rpc.request("sessions.patch", { key, model: "primary/m1" })).ok).toBe(true);
    primary.enqueue({ text: "thought hard" });
    expect(messageText((await turn("fo-think", "think", "fo-think-2")).message)).toBe("thought hard");
    expect(calls(primary).at(-1)!.body).toMatchObject({ reasoning_effort: "high", temperature: 0.2 });
  });

  it("an inline /think in chat.send sets its own message's level, out of its text; the session keeps its own", async () => {
    const key = "agent:main:fo-think";
    expect((await rpc.request("sessions.patch", { key, thinkingLevel: "low" })).ok).toBe(true);
    primary.enqueue({ text: "inline" });
    expect(messageText((await turn("fo-think", "/think high consider this", "fo-think-3")).message)).toBe("inline");
    const body = calls(primary).at(-1)!.body;
    expect(body.reasoning_effort).toBe("high");
    expect(JSON.stringify(body.messages.at(-1))).toContain("consider this");
    expect(JSON.stringify(body.messages.at(-1))).not.toContain("/think");
    primary.enqueue({ text: "plain" });
    await turn("fo-think", "and this", "fo-think-4");
    expect(calls(primary).at(-1)!.body.reasoning_effort).toBe("low");
  });
});
