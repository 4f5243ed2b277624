import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelRequest, ModelStreamEvent } from "../../../../src/agents/types.js";
import { validateConfig, type OpenClawConfig } from "../../../../src/config/index.js";
import { createStreamModel } from "../../../../src/models/index.js";
import { AuthProfileStore, buildCandidateChain, FailoverTurn, type OverloadRetry } from "../../../../src/models/failover/index.js";
import { startFakeModelServer, type FakeModelServer } from "../../../fakes/model-server.js";

/**
 * Failover through the real providers and SDKs against two fake model servers: "primary" (two
 * keys, OpenAI wire) and "backup" (Anthropic wire). Each failure must lead to the documented
 * next step (docs/models.md) and the answer must be streamed exactly once.
 */

let primary: FakeModelServer;
let backup: FakeModelServer;
let dir: string;
const stream = createStreamModel();
const KEY_A = "sk-primary-key-aaaa1111";
const KEY_B = "sk-primary-key-bbbb2222";
const ENV = { PRIMARY_API_KEYS: `${KEY_A},${KEY_B}`, BACKUP_API_KEY: "sk-backup-key-cccc3333" };

beforeAll(async () => {
  [primary, backup] = await Promise.all([startFakeModelServer(), startFakeModelServer()]);
});
afterAll(async () => {
  await Promise.all([primary.close(), backup.close()]);
});
beforeEach(() => {
  primary.reset();
  backup.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "failover-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function config(extra: Record<string, unknown> = {}): OpenClawConfig {
  return validateConfig(
    {
      agents: { defaults: { model: { primary: "primary/m1", fallbacks: ["backup/m2"] } } },
      models: {
        providers: {
          primary: { baseUrl: `${primary.url}/v1`, api: "openai-completions", timeoutSeconds: 1, models: [{ id: "m1", maxTokens: 512 }] },
          backup: { baseUrl: backup.url, api: "anthropic-messages", models: [{ id: "m2", maxTokens: 256 }] },
        },
      },
      ...extra,
    },
    {},
  ).config;
}

const NO_WAIT: OverloadRetry = { retries: 0, firstDelayMs: 1, maxDelayMs: 1 };

function turnFor(cfg: OpenClawConfig, options: { strict?: boolean; overload?: OverloadRetry; store?: AuthProfileStore; now?: () => number } = {}) {
  const store = options.store ?? new AuthProfileStore(path.join(dir, "auth-profiles.json"), options.now);
  const chain = buildCandidateChain({ requested: "primary/m1", strict: options.strict ?? false, fallbacks: ["backup/m2"] }, cfg);
  const turn = new FailoverTurn({ chain, config: cfg, env: ENV, store, stream, overload: options.overload ?? NO_WAIT });
  return { turn, store };
}

function request(cfg: OpenClawConfig): ModelRequest {
  const model = {
    ref: "primary/m1",
    provider: "primary",
    id: "m1",
    api: "openai-completions" as const,
    contextWindow: 100_000,
    maxTokens: 512,
    reasoning: false,
    input: ["text" as const],
  };
  void cfg;
  return { model, systemPrompt: "test", messages: [{ role: "user", content: "hello", timestamp: 1 }], tools: [], maxTokens: 512 };
}

async function call(turn: FailoverTurn, cfg: OpenClawConfig, signal = new AbortController().signal): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  // As the agent loop does: stop reading at the terminal event.
  for await (const event of turn.stream(request(cfg), signal)) {
    events.push(event);
    if (event.type === "done" || event.type === "error") break;
  }
  return events;
}

const keyOf = (server: FakeModelServer, i: number) => String(server.requests[i]?.headers.authorization ?? server.requests[i]?.headers["x-api-key"] ?? "");
const text = (events: ModelStreamEvent[]) =>
  events
    .filter((e) => e.type === "text_delta")
    .map((e) => (e as { delta: string }).delta)
    .join("");
const terminal = (events: ModelStreamEvent[]) => events.filter((e) => e.type === "done" || e.type === "error");

describe("failover: each failure leads to its documented step", () => {
  it("401 → the provider's next key answers; the refused key rests and the file (0600) remembers it", async () => {
    const cfg = config();
    primary.enqueue({ status: 401 }, { text: "from key B" });
    const { turn, store } = turnFor(cfg);
    const events = await call(turn, cfg);
    expect(text(events)).toBe("from key B");
    expect(terminal(events)).toHaveLength(1);
    expect([keyOf(primary, 0), keyOf(primary, 1)]).toEqual([`Bearer ${KEY_A}`, `Bearer ${KEY_B}`]);
    expect(backup.requests).toHaveLength(0);
    expect(turn.answeredBy).toBe("primary/m1");
    await store.flush();
    const file = path.join(dir, "auth-profiles.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(saved.usageStats["primary:env-list-1"]).toMatchObject({ errorCount: 1, cooldownReason: "auth" });
    expect(fs.readFileSync(file, "utf8")).not.toContain(KEY_A);

    // A restart (a new store on the same file) still skips the resting key.
    const restarted = new AuthProfileStore(file);
    expect(restarted.choose("primary", "m1", cfg, ENV).usable.map((p) => p.id)).toEqual(["primary:env-list-2"]);
  });

  it("402 → the key is disabled for billing (5 h) and the next key answers", async () => {
    const cfg = config();
    primary.enqueue({ status: 402, body: { error: { message: "insufficient credits", type: "billing" } } }, { text: "ok B" });
    const { turn, store } = turnFor(cfg);
    expect(text(await call(turn, cfg))).toBe("ok B");
    const usage = store.usage("primary:env-list-1")!;
    expect(usage.disabledReason).toBe("billing");
    expect(usage.disabledUntil! - Date.now()).toBeGreaterThan(4.9 * 3_600_000);
  });

  it("429 with retry-after 120 s → no SDK wait: the backup model answers, the key rests ≥ 120 s for that model only", async () => {
    const cfg = config();
    primary.enqueue({ status: 429, headers: { "retry-after": "120" } }, { status: 429, headers: { "retry-after": "120" } });
    backup.enqueue({ text: "backup here" });
    const { turn, store } = turnFor(cfg);
    const started = Date.now();
    const events = await call(turn, cfg);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(text(events)).toBe("backup here");
    expect(primary.requests).toHaveLength(2);
    expect(turn.answeredBy).toBe("backup/m2");
    expect(turn.fallbackReason).toBe("rate_limit");
    const usage = store.usage("primary:env-list-1")!;
    expect(usage.cooldownModel).toBe("m1");
    expect(usage.cooldownUntil! - Date.now()).toBeGreaterThan(110_000);
    // Model-scoped: another model of the same provider may still use the key.
    expect(store.choose("primary", "other-model", cfg, ENV).usable).toHaveLength(2);
  });

  it("429 without retry-after on both keys → one rotation, then the next model", async () => {
    const cfg = config();
    primary.setResponder(() => ({ status: 429 }));
    backup.enqueue({ text: "backup" });
    const { turn } = turnFor(cfg);
    expect(text(await call(turn, cfg))).toBe("backup");
    expect(primary.requests).toHaveLength(2);
  });

  it("500 → straight to the next model (another key would fare no better); the key does not rest", async () => {
    const cfg = config();
    primary.enqueue({ status: 500 });
    backup.enqueue({ text: "b" });
    const { turn, store } = turnFor(cfg);
    expect(text(await call(turn, cfg))).toBe("b");
    expect(primary.requests).toHaveLength(1);
    expect(store.usage("primary:env-list-1")?.cooldownUntil).toBeUndefined();
  });

  it("529 overloaded → one other key, then the next model", async () => {
    const cfg = config();
    primary.setResponder(() => ({ status: 529, body: { error: { message: "Overloaded", type: "overloaded_error" } } }));
    backup.enqueue({ text: "b" });
    const { turn } = turnFor(cfg);
    expect(text(await call(turn, cfg))).toBe("b");
    expect(primary.requests).toHaveLength(2);
    expect(turn.fallbackReason).toBe("overloaded");
  });

  it("a malformed stream (garbage before any text) → the next model", async () => {
    const cfg = config();
    primary.enqueue({ malformed: "garbage" });
    backup.enqueue({ text: "clean" });
    const { turn } = turnFor(cfg);
    const events = await call(turn, cfg);
    expect(text(events)).toBe("clean");
    expect(terminal(events).map((e) => e.type)).toEqual(["done"]);
  });

  it("a stream cut after text began → no second answer: the error ends the call, the partial text streamed once", async () => {
    const cfg = config();
    primary.enqueue({ malformed: "truncated" });
    const { turn } = turnFor(cfg);
    const events = await call(turn, cfg);
    expect(text(events)).toBe("This reply never finishes");
    expect(terminal(events).map((e) => e.type)).toEqual(["error"]);
    expect(backup.requests).toHaveLength(0);
  });

  it("a hang past the provider timeout → timeout: the key rests and the next model answers", async () => {
    const cfg = config();
    primary.enqueue({ text: "too late", delayMs: 5_000 });
    backup.enqueue({ text: "in time" });
    const { turn, store } = turnFor(cfg);
    expect(text(await call(turn, cfg))).toBe("in time");
    expect(primary.requests).toHaveLength(1);
    expect(store.usage("primary:env-list-1")).toMatchObject({ cooldownReason: "timeout" });
  });

  it("context overflow never moves on (compaction's job)", async () => {
    const cfg = config();
    primary.enqueue({ status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens", type: "invalid_request_error" } } });
    const { turn } = turnFor(cfg);
    const events = await call(turn, cfg);
    expect(terminal(events)).toMatchObject([{ type: "error", kind: "context_length" }]);
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(0);
  });

  it("an abort never moves on", async () => {
    const cfg = config();
    primary.enqueue({ text: "slow", delayMs: 800 });
    const controller = new AbortController();
    const { turn } = turnFor(cfg);
    setTimeout(() => controller.abort(), 100);
    const events = await call(turn, cfg, controller.signal);
    expect(terminal(events)).toMatchObject([{ type: "error", kind: "aborted" }]);
    expect(backup.requests).toHaveLength(0);
  });

  it("a strict (user-selected) model reports its own failure and never falls back", async () => {
    const cfg = config();
    primary.setResponder(() => ({ status: 500 }));
    const { turn } = turnFor(cfg, { strict: true });
    const events = await call(turn, cfg);
    expect(terminal(events)).toMatchObject([{ type: "error", kind: "server" }]);
    expect(backup.requests).toHaveLength(0);
  });

  it("every candidate failing → one FailoverError naming each attempt, no secret in it", async () => {
    const cfg = config();
    primary.setResponder(() => ({ status: 500 }));
    backup.setResponder(() => ({ status: 401 }));
    const { turn } = turnFor(cfg);
    const events = await call(turn, cfg);
    const end = terminal(events);
    expect(end).toHaveLength(1);
    const error = (end[0] as { error: string }).error;
    expect(error).toMatch(/^All models failed \(2 attempts\)/);
    expect(error).toContain("primary/m1 [primary:env-list-1]: server error");
    expect(error).toContain("backup/m2 [backup:env]: auth failed");
    expect(error).not.toContain("sk-");
  });

  it("only overloads → the whole chain is tried again after a pause, then answers", async () => {
    const cfg = config();
    let calls = 0;
    primary.setResponder(() => (++calls <= 2 ? { status: 529 } : { text: "recovered" }));
    // The backup is the last option, so its SDK retries too (quickly: retry-after-ms 1).
    backup.setResponder(() => ({ status: 529, headers: { "retry-after-ms": "1" } }));
    const { turn } = turnFor(cfg, { overload: { retries: 2, firstDelayMs: 20, maxDelayMs: 40 } });
    expect(text(await call(turn, cfg))).toBe("recovered");
    expect(turn.answeredBy).toBe("primary/m1");
    expect(backup.requests).toHaveLength(3);
  });

  it("the winner serves the rest of the turn: the next call starts from it", async () => {
    const cfg = config();
    primary.enqueue({ status: 500 });
    backup.enqueue({ text: "one" }, { text: "two" });
    const { turn } = turnFor(cfg);
    await call(turn, cfg);
    expect(text(await call(turn, cfg))).toBe("two");
    expect(primary.requests).toHaveLength(1);
  });

  it("a resting key is skipped by later turns; with every key resting the last candidate probes the soonest", async () => {
    const cfg = config();
    const file = path.join(dir, "auth-profiles.json");
    const store = new AuthProfileStore(file);
    primary.enqueue({ status: 401 }, { status: 401 });
    backup.enqueue({ text: "backup" });
    await call(turnFor(cfg, { store }).turn, cfg);
    expect(primary.requests).toHaveLength(2);
    // Both primary keys rest: the next turn goes straight to the backup.
    backup.enqueue({ text: "again" });
    const next = turnFor(cfg, { store }).turn;
    expect(text(await call(next, cfg))).toBe("again");
    expect(primary.requests).toHaveLength(2);
    expect(next.attempts[0]).toMatchObject({ ref: "primary/m1", reason: "cooldown" });
    // Strict on the primary: its soonest-free key is probed rather than failing unasked.
    primary.enqueue({ text: "probe ok" });
    const strict = turnFor(cfg, { store, strict: true }).turn;
    expect(text(await call(strict, cfg))).toBe("probe ok");
  });
});
