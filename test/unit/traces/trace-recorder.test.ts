import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent, AssistantMessage } from "../../../src/agents/types.js";
import type { TraceRecord } from "../../../src/traces/index.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { TraceRecorder, TraceStore, tracesDbPath } from "../../../src/traces/index.js";
import { traceSource } from "../../../src/conversations/trace-source.js";
import { HistoryLogs } from "../../../src/traces/history-log.js";
import { tracedMessage } from "../../../src/traces/history-messages.js";
import { TraceRedactor } from "../../../src/traces/redaction.js";
import type { HistoryMessage } from "../../../src/models/messages.js";

const dirs: string[] = [];
const recorders: TraceRecorder[] = [];
afterEach(async () => {
  for (const r of recorders.splice(0)) await r.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A run's trace with nothing in it but what `fields` sets. */
function plainRecord(runId: string, startedAt: number, fields: Partial<TraceRecord> = {}): TraceRecord {
  return {
    runId,
    sessionKey: "agent:main:main",
    agentId: "main",
    source: "chat",
    startedAt,
    endedAt: startedAt + 1,
    durationMs: 1,
    outcome: "ok",
    input: ["hi"],
    modelCalls: [],
    toolCalls: [],
    thinking: [],
    output: "x",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    compactions: [],
    ...fields,
  };
}

/** Rows of one table of a state dir's trace store, read from its file. */
function rowCount(stateDir: string, table: string): number {
  const db = new Database(tracesDbPath(stateDir), { readonly: true });
  try {
    return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

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
    expect(rowCount(stateDir, "traces")).toBe(3);
    expect(rowCount(stateDir, "prompts")).toBe(1);
  });

  it("stores each history message once however many runs sent it, redacted, its images as type and size", async () => {
    const secret = "sk-test-history-0123456789";
    const { r, stateDir } = recorder(applyDefaults({}));
    const user = {
      role: "user" as const,
      content: [
        { type: "text" as const, text: `my key is ${secret}` },
        { type: "image" as const, data: "A".repeat(4_000), mimeType: "image/png" },
      ],
      timestamp: 1,
    };
    const answer = assistant([
      { type: "thinking", thinking: "noted" },
      { type: "toolCall", id: "c1", name: "exec", arguments: { command: "ls", token: "plain-token-5678" } },
    ]);
    const result = {
      role: "toolResult" as const,
      toolCallId: "c1",
      toolName: "exec",
      content: [{ type: "text" as const, text: "a.txt" }],
      isError: false,
      details: { big: "x" },
      timestamp: 2,
    };
    const histories = [[user], [user, answer, result]];
    for (const [i, history] of histories.entries()) {
      const h = r.begin({ runId: `hist-${i}`, sessionKey: "agent:main:main", agentId: "main", source: "chat", input: "next" })!;
      h.event({ type: "run_history", messages: history });
      h.end({ outcome: "ok", result: { payloads: [{ text: "ok" }], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" } });
    }
    const first = (await r.get("hist-0"))!;
    const second = (await r.get("hist-1"))!;
    expect(first.trace.history).toEqual({ messages: 1, log: expect.any(String), runs: [[0, 0]] });
    expect(second.trace.history).toEqual({ messages: 3, log: first.trace.history!.log, runs: [[0, 2]] });
    expect(first.history).toEqual(second.history!.slice(0, 1));
    expect(second.history).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "my key is [redacted]" },
          { type: "image", mimeType: "image/png", omittedChars: 4_000 },
        ],
        timestamp: 1,
      },
      expect.objectContaining({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "noted" },
          { type: "toolCall", id: "c1", name: "exec", arguments: { command: "ls", token: "[redacted]" } },
        ],
      }),
      { role: "toolResult", toolCallId: "c1", toolName: "exec", content: [{ type: "text", text: "a.txt" }], isError: false, timestamp: 2 },
    ]);
    expect(JSON.stringify(second)).not.toContain(secret);
    await r.close();
    // One log entry per message: the second run's history extends the first's.
    expect(rowCount(stateDir, "history_messages")).toBe(3);
    expect(rowCount(stateDir, "history_log")).toBe(3);
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
    const record = (runId: string, startedAt: number, output = "x") => ({ record: plainRecord(runId, startedAt, { output }) });
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

describe("TraceStore retention of history", () => {
  it("trims each session's log below what its remaining traces use, and deletes the messages no log entry names", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "traces-"));
    dirs.push(stateDir);
    const store = (await TraceStore.open(tracesDbPath(stateDir), { create: true }))!;
    const now = Date.now();
    const day = 86_400_000;
    const message = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
    const [a, b, c, d] = [message("a"), message("b"), message("c"), message("d")];
    const logs = new HistoryLogs();
    const redactor = new TraceRedactor(applyDefaults({}), {});
    const trace = (runId: string, startedAt: number, sessionKey: string, history: HistoryMessage[]) => {
      const logged = logs.record(sessionKey, history, (message) => tracedMessage(message, redactor));
      return { record: plainRecord(runId, startedAt, { sessionKey, history: logged.history }), history: logged.rows };
    };
    const texts = (runId: string) => store.get(runId)!.history!.map((m) => m.content);
    try {
      // Session s: [a], then [a, b, c] (one run of its log); session t sends the same a, then d.
      store.write([trace("s1", now - 20 * day, "s", [a]), trace("s2", now - 20 * day, "s", [a, b, c]), trace("t1", now - day, "t", [a, d])]);
      expect(texts("s2")).toEqual(["a", "b", "c"]);
      expect(texts("t1")).toEqual(["a", "d"]);
      // A run written again keeps its latest trace: what only its earlier history held is let go.
      store.write([trace("s3", now - 20 * day, "s", [a, b, c, d]), trace("s3", now - 20 * day, "s", [a, b, c])]);
      expect(texts("s3")).toEqual(["a", "b", "c"]);
      expect(rowCount(stateDir, "history_messages")).toBe(4);
      store.write([trace("s3", now - 20 * day, "u", [b])]);
      expect(texts("s3")).toEqual(["b"]);
      expect(store.prune({ retentionDays: 14, maxBytes: 1_000_000, now })).toBe(3);
      // Logs s and u have no trace left: b and c go; a and d are still in t's log.
      expect(texts("t1")).toEqual(["a", "d"]);
      expect(rowCount(stateDir, "history_log")).toBe(2);
      expect(rowCount(stateDir, "history_messages")).toBe(2);
      // Session s's log was emptied: its next run starts a new one, and its history is whole.
      const emptied = store.takeEmptiedLogs();
      expect(emptied).toHaveLength(2);
      logs.forget(emptied);
      store.write([trace("s4", now - 1, "s", [a, b, c])]);
      expect(texts("s4")).toEqual(["a", "b", "c"]);
      expect(store.takeEmptiedLogs()).toEqual([]);
      // With no trace left, no entry is kept.
      expect(store.prune({ retentionDays: 14, maxBytes: 1_000_000, now: now + 14 * day })).toBe(2);
      expect(store.storedBytes()).toBe(0);
      expect(rowCount(stateDir, "history_log")).toBe(0);
    } finally {
      store.close();
    }
  });

  it("opens a store written before traces had a history: its traces name none, new ones do", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "traces-"));
    dirs.push(stateDir);
    fs.mkdirSync(path.join(stateDir, "traces"));
    const old = new Database(tracesDbPath(stateDir));
    old.exec(`CREATE TABLE traces (
      run_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, agent_id TEXT NOT NULL, source TEXT NOT NULL,
      started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL, outcome TEXT NOT NULL, model TEXT,
      input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, model_calls INTEGER NOT NULL, tool_calls INTEGER NOT NULL,
      prompt_hash TEXT, body TEXT NOT NULL, bytes INTEGER NOT NULL)`);
    const body = JSON.stringify({ runId: "before", input: ["hi"], output: "x", modelCalls: [], toolCalls: [], thinking: [], compactions: [] });
    old.prepare("INSERT INTO traces VALUES ('before', 'agent:main:main', 'main', 'chat', ?, 1, 'ok', NULL, 0, 0, 0, 0, NULL, ?, ?)").run(Date.now(), body, body.length);
    old.close();
    const store = (await TraceStore.open(tracesDbPath(stateDir), { create: true }))!;
    try {
      expect(store.get("before")).toEqual({ trace: JSON.parse(body) });
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
