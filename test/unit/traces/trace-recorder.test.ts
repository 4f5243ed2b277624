import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent, AssistantMessage } from "../../../src/agents/types.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { TraceRecorder, TraceStore, tracesDbPath } from "../../../src/traces/index.js";
import { traceSource } from "../../../src/conversations/trace-source.js";

const dirs: string[] = [];
const recorders: TraceRecorder[] = [];
afterEach(async () => {
  for (const r of recorders.splice(0)) await r.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const quietLogger = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} } as never;

function recorder(config: OpenClawConfig, env: NodeJS.ProcessEnv = {}) {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "traces-"));
  dirs.push(stateDir);
  const r = new TraceRecorder({ stateDir, config: () => config, env, logger: quietLogger });
  recorders.push(r);
  return { r, stateDir };
}

const assistant = (content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: "assistant",
  content,
  provider: "fake",
  model: "fake-model",
  timestamp: Date.now(),
  ...extra,
});

/** A run with one failed attempt, a tool call blocked by policy, an exec approval and a final answer. */
function scriptedRun(secret: string): AgentEvent[] {
  const toolCall = { type: "toolCall" as const, id: "call-1", name: "exec", arguments: { command: `curl -H 'x: ${secret}' example.test`, apiKey: "plain-value-1234" } };
  return [
    { type: "run_context", systemPrompt: `You are helpful. Key ${secret}.`, promptVersion: "0123456789abcdef", model: "fake/fake-model", tools: ["exec", "read"] },
    { type: "agent_start", runId: "run-1", startedAt: Date.now() },
    { type: "model_attempt", ref: "fake/fake-model", profileId: "fake:a", ok: false, reason: "rate_limit", message: "429 too many" },
    { type: "model_attempt", ref: "fake/fake-model", profileId: "fake:b", ok: true },
    { type: "message_start", message: assistant([]) },
    { type: "message_update", message: assistant([]), delta: { kind: "thinking", text: "hmm" } },
    { type: "message_update", message: assistant([]), delta: { kind: "text", text: "x" } },
    {
      type: "message_end",
      message: assistant([{ type: "thinking", thinking: "I should run curl" }, toolCall], {
        stopReason: "toolUse",
        usage: { input: 100, output: 20, cacheRead: 5, cacheWrite: 0 },
      }),
    },
    { type: "tool_execution_start", toolCallId: "call-1", toolName: "exec", args: toolCall.arguments },
    { type: "exec_approval", command: toolCall.arguments.command, policy: "ask", answer: "deny", allowed: false, reason: "an operator denied this command" },
    {
      type: "tool_execution_end",
      toolCallId: "call-1",
      toolName: "exec",
      result: { content: [{ type: "text", text: "denied: an operator denied this command" }], isError: true },
      isError: true,
    },
    { type: "tool_execution_start", toolCallId: "call-2", toolName: "read", args: { path: "a.txt" } },
    { type: "tool_decision", toolCallId: "call-2", toolName: "read", action: "block", reason: "loop detected" },
    { type: "tool_execution_end", toolCallId: "call-2", toolName: "read", result: { content: [{ type: "text", text: "blocked" }], isError: true }, isError: true },
    { type: "message_start", message: assistant([]) },
    { type: "message_end", message: assistant([{ type: "text", text: "done" }], { stopReason: "stop", usage: { input: 150, output: 5, cacheRead: 0, cacheWrite: 0 } }) },
  ];
}

describe("TraceRecorder", () => {
  it("builds one trace per run from the loop's events: model calls with failover, tool calls with policy and approval, thinking, output", async () => {
    const secret = "sk-test-1234567890abcdefXYZ";
    const config = applyDefaults({ models: { providers: { fake: { baseUrl: "http://127.0.0.1:1/v1", apiKey: secret, api: "openai-completions" } } } });
    const { r } = recorder(config);
    const handle = r.begin({ runId: "run-1", sessionKey: "agent:main:main", agentId: "main", source: "chat", input: `use ${secret} please` })!;
    for (const event of scriptedRun(secret)) handle.event(event);
    handle.end({
      outcome: "ok",
      result: { payloads: [{ text: "done" }], usage: { input: 250, output: 25, cacheRead: 5, cacheWrite: 0 }, stopReason: "stop", model: "fake/fake-model" },
    });

    const list = await r.list({});
    expect(list).toEqual([
      expect.objectContaining({
        runId: "run-1",
        sessionKey: "agent:main:main",
        source: "chat",
        outcome: "ok",
        model: "fake/fake-model",
        inputTokens: 250,
        outputTokens: 25,
        modelCalls: 2,
        toolCalls: 2,
      }),
    ]);
    const found = (await r.get("run-1"))!;
    const t = found.trace;
    expect(t.modelCalls[0]).toMatchObject({ provider: "fake", model: "fake-model", authProfile: "fake:b", stopReason: "toolUse", usage: { input: 100, output: 20, cacheRead: 5 } });
    expect(t.modelCalls[0]!.failover).toEqual([{ ref: "fake/fake-model", profileId: "fake:a", reason: "rate_limit", message: "429 too many" }]);
    expect(t.modelCalls[0]!.ttftMs).toBeGreaterThanOrEqual(0);
    expect(t.modelCalls[1]).toMatchObject({ stopReason: "stop", failover: [] });
    expect(t.modelCalls[1]!.ttftMs).toBeUndefined();
    expect(t.toolCalls[0]).toMatchObject({ id: "call-1", name: "exec", isError: true, decision: "allowed", approval: { policy: "ask", answer: "deny", allowed: false } });
    expect(t.toolCalls[0]!.resultChars).toBe("denied: an operator denied this command".length);
    expect(t.toolCalls[1]).toMatchObject({ name: "read", decision: "blocked", decisionReason: "loop detected" });
    expect(t.thinking).toEqual(["I should run curl"]);
    expect(t.output).toBe("done");
    expect(t.tools).toEqual(["exec", "read"]);

    // Secrets are gone everywhere: the configured key, secret-named arguments, the stored prompt.
    const stored = JSON.stringify(found);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain("plain-value-1234");
    expect(t.input[0]).toBe("use [redacted] please");
    expect(found.systemPrompt).toBe("You are helpful. Key [redacted].");
    expect(t.systemPromptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(t.promptVersion).toBe("0123456789abcdef");

    // What an audit record needs of the tool calls, without their arguments or results.
    const outlines = await r.toolCallOutlines("run-1");
    expect(outlines).toEqual([
      { id: "call-1", name: "exec", startedAt: t.toolCalls[0]!.startedAt, durationMs: t.toolCalls[0]!.durationMs, isError: true, decision: "allowed" },
      { id: "call-2", name: "read", startedAt: t.toolCalls[1]!.startedAt, durationMs: t.toolCalls[1]!.durationMs, isError: true, decision: "blocked" },
    ]);
    expect(await r.toolCallOutlines("no-such-run")).toEqual([]);
    expect((await r.list({ runId: "run-1", agentId: "main" })).map((s) => s.runId)).toEqual(["run-1"]);
    expect(await r.list({ agentId: "other" })).toEqual([]);
  });

  it("stores a system prompt once however many runs used it, and filters by session and time", async () => {
    const { r, stateDir } = recorder(applyDefaults({}));
    for (const [i, session] of ["agent:main:a", "agent:main:b", "agent:main:a"].entries()) {
      const h = r.begin({ runId: `run-${i}`, sessionKey: session, agentId: "main", source: "http", input: "hi" })!;
      h.event({ type: "run_context", systemPrompt: "the same prompt", promptVersion: "0123456789abcdef", model: "fake/fake-model", tools: [] });
      h.end({ outcome: "ok", result: { payloads: [{ text: "ok" }], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" } });
    }
    expect((await r.list({ sessionKey: "agent:main:a" })).map((t) => t.runId).sort()).toEqual(["run-0", "run-2"]);
    expect(await r.list({ since: Date.now() + 60_000 })).toEqual([]);
    await r.close();
    const db = new Database(tracesDbPath(stateDir), { readonly: true });
    try {
      expect((db.prepare("SELECT COUNT(*) AS n FROM traces").get() as { n: number }).n).toBe(3);
      expect((db.prepare("SELECT COUNT(*) AS n FROM prompts").get() as { n: number }).n).toBe(1);
    } finally {
      db.close();
    }
  });

  it("masks secret environment values, logging.redactPatterns and Bearer values, and leaves credentials shorter than 8 characters", async () => {
    const config = applyDefaults({ logging: { redactPatterns: ["ticket-\\d+"] }, gateway: { auth: { mode: "password", password: "abc123x" } } });
    const { r } = recorder(config, { MY_SERVICE_TOKEN: "tok-abcdefgh123", PATH: "/usr/bin" });
    const h = r.begin({
      runId: "env-run",
      sessionKey: "agent:main:main",
      agentId: "main",
      source: "chat",
      input: "use tok-abcdefgh123 and abc123x for ticket-42 with Bearer abcdefghijklmnop in /usr/bin",
    })!;
    h.end({ outcome: "ok", result: { payloads: [{ text: "ok" }], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" } });
    expect((await r.get("env-run"))!.trace.input).toEqual(["use [redacted] and abc123x for [redacted] with [redacted] in /usr/bin"]);
  });

  it("takes a rating back only while it is still the one given with that note", async () => {
    const { r } = recorder(applyDefaults({ diagnostics: { traces: { review: { sampleRate: 0, newModelHours: 0 } } } }));
    const h = r.begin({ runId: "run-r", sessionKey: "agent:main:main", agentId: "main", source: "chat", input: "hi" })!;
    h.end({ outcome: "ok", result: { payloads: [{ text: "ok" }], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" } });
    const queue = async () => (await r.reviewList("all", 10)).items.map((i) => ({ reasons: i.reasons, feedback: i.feedback?.note }));

    await r.feedback("run-r", "down", "👎 by user 1");
    expect(await r.retractFeedback("run-r", "down", "👎 by user 2")).toBe(false);
    expect(await r.retractFeedback("run-r", "up", "👎 by user 1")).toBe(false);
    expect(await queue()).toEqual([{ reasons: ["negative-feedback"], feedback: "👎 by user 1" }]);
    expect(await r.retractFeedback("run-r", "down", "👎 by user 1")).toBe(true);
    expect(await queue()).toEqual([]);

    // Someone else rated since: the first rater's removal leaves their rating.
    await r.feedback("run-r", "down", "👎 by user 1");
    await r.feedback("run-r", "down", "operator");
    expect(await r.retractFeedback("run-r", "down", "👎 by user 1")).toBe(false);
    expect(await queue()).toEqual([{ reasons: ["negative-feedback"], feedback: "operator" }]);
    expect(await r.retractFeedback("no-such-run", "down", "operator")).toBe(false);
  });

  it("records nothing when diagnostics.traces.enabled is false", () => {
    const { r } = recorder(applyDefaults({ diagnostics: { traces: { enabled: false } } }));
    expect(r.begin({ runId: "x", sessionKey: "agent:main:main", agentId: "main", source: "chat", input: "hi" })).toBeUndefined();
  });
});

describe("TraceStore retention", () => {
  it("deletes traces past the retention, then the oldest until the store fits its size cap", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "traces-"));
    dirs.push(stateDir);
    const store = (await TraceStore.open(tracesDbPath(stateDir), { create: true }))!;
    const now = Date.now();
    const day = 86_400_000;
    const record = (runId: string, startedAt: number, output = "x") => ({
      record: {
        runId,
        sessionKey: "agent:main:main",
        agentId: "main",
        source: "chat" as const,
        startedAt,
        endedAt: startedAt + 1,
        durationMs: 1,
        outcome: "ok" as const,
        input: ["hi"],
        modelCalls: [],
        toolCalls: [],
        thinking: [],
        output,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        compactions: [],
      },
    });
    try {
      store.write([
        record("old", now - 20 * day),
        record("a", now - 3 * day, "a".repeat(5_000)),
        record("b", now - 2 * day, "b".repeat(5_000)),
        record("c", now - day, "c".repeat(5_000)),
      ]);
      expect(store.prune({ retentionDays: 14, maxBytes: 1_000_000, now })).toBe(1);
      expect(store.list({}).map((t) => t.runId)).toEqual(["c", "b", "a"]);
      // Two 5 KB traces fit in 12 KB; the oldest goes.
      expect(store.prune({ retentionDays: 14, maxBytes: 12_000, now })).toBe(1);
      expect(store.list({}).map((t) => t.runId)).toEqual(["c", "b"]);
      expect(store.storedBytes()).toBeLessThanOrEqual(12_000);
    } finally {
      store.close();
    }
  });
});

describe("traceSource", () => {
  it("names a run's source by its session key first, then by how its message arrived", () => {
    expect(traceSource("agent", "agent:main:subagent:1234", false)).toBe("subagent");
    expect(traceSource("cron", "agent:main:main", false)).toBe("cron");
    expect(traceSource("chat.send", "agent:main:main", true)).toBe("internal");
    expect(traceSource("channel", "agent:main:telegram:dm:1", false)).toBe("channel");
    expect(traceSource("http", "agent:main:openai:x", false)).toBe("http");
    expect(traceSource("chat.send", "agent:main:main", false)).toBe("chat");
  });
});
