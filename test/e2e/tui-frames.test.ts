import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { readTuiFrames } from "../helpers/tui-fixture.js";
import { TestSocket, type Frame } from "../helpers/ws-client.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

/**
 * OpenClaw's own terminal UI (`openclaw tui`, 2026.9.6 from npm) against this gateway: the request
 * frames it sent in one session (start-up, a chat turn, /status, /model, /new, /whoami, /usage,
 * /queue, /reset, /think, /stop), recorded once through a WebSocket proxy and replayed here byte
 * for byte (only the token is a placeholder). The TUI renders a command's answer from the run's
 * `final` chat event and its token footer from the session row.
 */
const frames: Frame[] = readTuiFrames("openclaw-tui-2026.9.6.jsonl");

let server: FakeModelServer;
let gw: GatewayProcess;
const responses = new Map<string, Frame>();
let sock: TestSocket;

beforeAll(async () => {
  server = await startFakeModelServer();
  server.setResponder(() => ({ text: "echo from the fake model", usage: { input: 1000, output: 30, cacheRead: 200, cacheWrite: 0 } }));
  const stateDir = makeTempDir();
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: {
      providers: {
        fake: {
          baseUrl: `${server.url}/v1`,
          apiKey: "sk-fake",
          api: "openai-completions",
          models: [{ id: "fake-model", contextWindow: 120000, maxTokens: 4096, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }],
        },
      },
    },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  sock = await TestSocket.open(gw.url);
  await sock.waitFor((f) => f.event === "connect.challenge");
  for (const frame of frames) {
    const sent = frame.method === "connect" ? { ...frame, params: { ...frame.params, auth: { token: gw.token } } } : frame;
    sock.send(sent);
    const res = await sock.waitFor((f) => f.type === "res" && f.id === frame.id, 15_000);
    responses.set(frame.id, res);
    // The TUI waits for a sent message's run to end before it reads the session again.
    if (frame.method === "chat.send" && res.ok) {
      await sock.waitFor((f) => f.event === "chat" && f.payload.runId === res.payload.runId && ["final", "error", "aborted"].includes(f.payload.state), 15_000);
    }
  }
}, 120_000);

afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

const sentOf = (method: string) => frames.filter((f) => f.method === method);
const answerTo = (frame: Frame) => responses.get(frame.id)!;
const chatSend = (message: string) => frames.find((f) => f.method === "chat.send" && f.params.message === message)!;

describe("OpenClaw's TUI frames, replayed", () => {
  it("every request the TUI sends is answered", () => {
    const failed = frames.filter((f) => !answerTo(f).ok).map((f) => `${f.method}: ${answerTo(f).error.message}`);
    expect(failed).toEqual([]);
  });

  it("the TUI's /usage (sessions.patch responseUsage) sets the session's usage footer", () => {
    const patch = sentOf("sessions.patch").find((f) => f.params.responseUsage === "tokens")!;
    expect(answerTo(patch).payload.entry.responseUsage).toBe("tokens");
  });

  it("start-up: no pending questions or plugin approvals, the command menu, and describe answers {session} (null before the first message)", () => {
    expect(answerTo(sentOf("question.list")[0]!).payload).toEqual({ questions: [] });
    expect(answerTo(sentOf("plugin.approval.list")[0]!).payload).toEqual([]);
    const commands = answerTo(sentOf("commands.list")[0]!).payload.commands as Frame[];
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(["help", "status", "whoami", "new", "reset", "stop", "queue"]));
    expect(commands.find((c) => c.name === "whoami")).toMatchObject({ textAliases: ["/whoami", "/id"], source: "native", scope: "both", acceptsArgs: false });
    expect(answerTo(sentOf("sessions.describe")[0]!).payload).toEqual({ session: null });
  });

  it("after a turn the session row carries tokens, cache, context use against the window and the estimated cost", () => {
    const afterTurn = answerTo(sentOf("sessions.describe")[1]!).payload.session;
    expect(afterTurn).toMatchObject({
      key: "agent:main:main",
      modelProvider: "fake",
      model: "fake-model",
      inputTokens: 1200,
      outputTokens: 30,
      cacheRead: 200,
      cacheWrite: 0,
      contextTokens: 120000,
      hasActiveRun: false,
      activeRunIds: [],
    });
    expect(afterTurn.totalTokens).toBeGreaterThan(0);
    // 1000 uncached × $3 + 30 out × $15 + 200 cache reads × $0.30, per million tokens.
    expect(afterTurn.estimatedCostUsd).toBeCloseTo(0.00351, 8);
    const listed = answerTo(sentOf("sessions.list")[1]!).payload;
    expect(listed.defaults).toEqual({ modelProvider: "fake", model: "fake-model", contextTokens: 120000 });
    expect(listed.sessions[0]).toMatchObject({ key: "agent:main:main", inputTokens: 1200, estimatedCostUsd: afterTurn.estimatedCostUsd });
  });

  it("/status is a gateway command: the model never sees it, and the answer is a final chat event marked as a command", () => {
    const status = chatSend("/status");
    expect(answerTo(status).payload).toMatchObject({ runId: status.params.idempotencyKey, status: "started", command: "status" });
    const final = sock.frames.find((f) => f.event === "chat" && f.payload.runId === status.params.idempotencyKey)!;
    expect(final.payload).toMatchObject({ state: "final", sessionKey: "agent:main:main", message: { role: "assistant", command: true } });
    const card = final.payload.message.content[0].text as string;
    expect(card).toContain("Model: fake/fake-model");
    expect(card).toContain("Tokens: 1.2k in / 30 out · cache 200 read / 0 write");
    expect(card).toMatch(/Context: [\d.k]+ \/ 120k \(\d+%\)/);
    expect(card).toContain("Cost: $0.0035 (estimated)");
    expect(card).toContain("Queue: default · run idle");
    expect(server.requests.some((r) => JSON.stringify(r.body).includes("/status"))).toBe(false);
  });

  it("/model lists the configured models for the TUI's agent", () => {
    expect(answerTo(sentOf("models.list")[0]!).payload.models).toEqual([expect.objectContaining({ id: "fake-model", provider: "fake", available: true, contextWindow: 120000 })]);
  });

  it("/new creates a child session under the key the TUI chose; /whoami, /queue and /reset act on it", () => {
    const create = sentOf("sessions.create")[0]!;
    const created = answerTo(create).payload;
    expect(created).toMatchObject({ ok: true, key: `agent:main:${create.params.key}` });
    expect(created.sessionId).toEqual(expect.any(String));
    const whoami = sock.frames.find((f) => f.event === "chat" && f.payload.runId === chatSend("/whoami").params.idempotencyKey)!;
    expect(whoami.payload.message.content[0].text).toContain(`Session: agent:main:${create.params.key}`);
    const queued = sock.frames.find((f) => f.event === "chat" && f.payload.runId === chatSend("/queue collect").params.idempotencyKey)!;
    expect(queued.payload.message.content[0].text).toBe("Queue mode for this session: collect.");
    const reset = answerTo(sentOf("sessions.reset")[0]!).payload;
    expect(reset.entry.sessionId).not.toBe(created.sessionId);
    expect(reset.entry.queueMode).toBe("collect");
  });

  it("sessions.changed tells subscribers the row after a turn, with no run left active", () => {
    const changed = sock.frames.filter((f) => f.event === "sessions.changed" && f.payload.reason === "run-ended");
    expect(changed.length).toBeGreaterThanOrEqual(2);
    expect(changed[0]!.payload).toMatchObject({ key: "agent:main:main", sessionKey: "agent:main:main", agentId: "main", activeRunIds: [], hasActiveRun: false, inputTokens: 1200 });
  });

  it("/stop with preserveSideRuns is accepted (this gateway has no side runs)", () => {
    expect(answerTo(sentOf("chat.abort")[0]!).payload).toEqual({ ok: true, aborted: false, runIds: [] });
  });
});
