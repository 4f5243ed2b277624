import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { allTextOf, lastMessageOf, messagesOf, systemPromptOf } from "../helpers/model-request.js";
import { waitUntil } from "../helpers/reliability.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeOtlpCollector, type FakeOtlpCollector } from "../fakes/otlp-collector.js";

let server: FakeModelServer;
let collector: FakeOtlpCollector;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;
/** Has a credential's shape (an `sk-` key): traces redact it wherever it appears. */
const SECRET = "sk-live-abcdefghijklmnop1234";

beforeAll(async () => {
  server = await startFakeModelServer();
  collector = await startFakeOtlpCollector();
  stateDir = makeTempDir();
  fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, "workspace", "notes.txt"), "the launch code is blue\n");
  const diagnostics = { otel: { endpoint: collector.endpoint, headers: { "x-ingest-key": "collector-key-123" } } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir, { diagnostics }) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
  await collector?.close();
});

async function chat(sessionKey: string, message: string): Promise<string> {
  const runId = randomUUID();
  await sock.request("chat.send", { sessionKey, message, idempotencyKey: runId });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final", 20_000);
  return runId;
}

describe("run traces end to end", () => {
  it("a chat run with a tool call is traced: traces.list / traces.get, the CLI, and OTLP spans with GenAI attributes", async () => {
    server.enqueue(
      { thinking: "I will read the notes", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { input: 120, output: 12 } },
      { text: "The code is blue.", usage: { input: 160, output: 6 } },
    );
    const runId = await chat("traced", "what is in notes.txt?");

    const listed = await sock.request("traces.list", { sessionKey: "agent:main:traced" });
    expect(listed.ok).toBe(true);
    expect(listed.payload.traces[0]).toMatchObject({ runId, source: "chat", outcome: "ok", modelCalls: 2, toolCalls: 1, model: "fake/fake-model" });

    const got = await sock.request("traces.get", { runId });
    expect(got.ok).toBe(true);
    const trace = got.payload.trace;
    expect(trace.input).toEqual(["what is in notes.txt?"]);
    expect(trace.modelCalls.map((c: { stopReason: string }) => c.stopReason)).toEqual(["toolUse", "stop"]);
    expect(trace.modelCalls[0]).toMatchObject({ provider: "fake", model: "fake-model", usage: { input: 120, output: 12 } });
    expect(trace.modelCalls[0].latencyMs).toBeGreaterThanOrEqual(trace.modelCalls[0].ttftMs);
    expect(trace.toolCalls[0]).toMatchObject({ name: "read", args: { path: "notes.txt" }, decision: "allowed", isError: false });
    expect(trace.toolCalls[0].resultHead).toContain("the launch code is blue");
    expect(trace.thinking).toEqual(["I will read the notes"]);
    expect(trace.output).toBe("The code is blue.");
    expect(got.payload.systemPrompt).toContain("read");
    expect(trace.systemPromptHash).toMatch(/^[0-9a-f]{64}$/);

    // A bare session key means the default agent's session, as in chat.send and sessions.get.
    const bare = await sock.request("traces.list", { sessionKey: "traced" });
    expect(bare.payload.traces.map((t: { runId: string }) => t.runId)).toEqual([runId]);

    const missing = await sock.request("traces.get", { runId: "no-such-run" });
    expect(missing.ok).toBe(false);
    expect(missing.error.message).toContain("no trace for run no-such-run");

    const env = { OPENCLAW_STATE_DIR: stateDir };
    const list = await runCli(["traces", "list", "--session", "agent:main:traced", "--json"], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.output).traces.map((t: { runId: string }) => t.runId)).toEqual([runId]);
    const bareList = await runCli(["traces", "list", "--session", "traced", "--json"], env);
    expect(JSON.parse(bareList.output).traces.map((t: { runId: string }) => t.runId)).toEqual([runId]);
    const show = await runCli(["traces", "show", runId], env);
    expect(show.code).toBe(0);
    expect(show.output).toContain(`run ${runId}`);
    expect(show.output).toMatch(/tool read \{"path":"notes.txt"\}/);
    expect(show.output).toContain("reply The code is blue.");
    const bad = await runCli(["traces", "list", "--since", "yesterday-ish"], env);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain("--since: expected a duration");
    // A bare number is neither a duration nor a date (JavaScript reads "5" as May 2001).
    const unitless = await runCli(["traces", "list", "--since", "5"], env);
    expect(unitless.code).toBe(1);
    expect(unitless.output).toContain('--since: expected a duration such as 30m, 2h or 7d, or a date such as 2026-12-01, got "5"');

    const spans = await collector.waitFor((s) => s.some((span) => span.attributes["openclaw.run_id"] === runId));
    const root = spans.find((s) => s.attributes["openclaw.run_id"] === runId)!;
    expect(root).toMatchObject({
      name: "invoke_agent main",
      attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "main", "gen_ai.usage.input_tokens": 280 },
    });
    expect(root.resource["service.name"]).toBe("openclaw");
    const children = await collector.waitFor((s) => s.filter((span) => span.parentSpanId === root.spanId).length === 3);
    const under = children.filter((s) => s.parentSpanId === root.spanId);
    expect(under.map((s) => s.name).sort()).toEqual(["chat fake-model", "chat fake-model", "execute_tool read"]);
    expect(under.find((s) => s.name === "execute_tool read")!.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "read" });
    expect(under.find((s) => s.name === "chat fake-model")!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "fake",
      "gen_ai.request.model": "fake-model",
    });
    expect(collector.headers[0]!["x-ingest-key"]).toBe("collector-key-123");
    // OTLP/HTTP protobuf, as OpenClaw exports; no message content without captureContent.
    expect(collector.headers[0]!["content-type"]).toBe("application/x-protobuf");
    expect(root.attributes).not.toHaveProperty("gen_ai.input.messages");
  });

  it("a run's trace names the conversation its model call was sent before its message; traces.get and the CLI give those messages, secrets redacted", async () => {
    server.enqueue({ text: "Hello Ada, noted." }, { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "Your name is Ada." });
    await chat("recalled", `my name is Ada and my key is ${SECRET}`);
    const runId = await chat("recalled", "what is my name?");
    // What the model got before this run's message: the system prompt, then the first exchange.
    const asked = server.requests.find((r) => lastMessageOf(r).text === "what is my name?")!;
    const sent = messagesOf(asked).slice(1, -1);
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant"]);

    const got = await sock.request("traces.get", { runId });
    expect(got.ok).toBe(true);
    expect(got.payload.trace.input).toEqual(["what is my name?"]);
    expect(got.payload.trace.history).toEqual({ messages: 2, log: expect.any(String), runs: [[0, 1]] });
    const history = got.payload.history as { role: string; content: { type: string; text: string }[] | string }[];
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(history[0]!.content)).toContain("my name is Ada and my key is [redacted]");
    expect(JSON.stringify(history)).not.toContain(SECRET);
    expect(JSON.stringify(history[1]!.content)).toContain("Hello Ada, noted.");

    // The next run's history is this one's and this run's own messages: one run of the session's log.
    const third = await chat("recalled", "thanks");
    const next = await sock.request("traces.get", { runId: third });
    expect(next.payload.trace.history).toEqual({ messages: 6, log: got.payload.trace.history.log, runs: [[0, 5]] });
    expect(next.payload.history.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user", "assistant", "toolResult", "assistant"]);
    expect(next.payload.history.slice(0, 2)).toEqual(history);
    expect(JSON.stringify(next.payload.history[4].content)).toContain("the launch code is blue");

    const show = await runCli(["traces", "show", runId], { OPENCLAW_STATE_DIR: stateDir });
    expect(show.code).toBe(0);
    expect(show.output).toContain("history 2 messages");
    expect(show.output).toContain("user my name is Ada and my key is [redacted]");
    expect(show.output).toContain("assistant Hello Ada, noted.");
    expect(show.output).not.toContain(SECRET);
  });

  it("a reload of diagnostics.otel applies to the next trace exported: headers, serviceName, JSON, captured content", async () => {
    const { payload: snap } = await sock.request("config.get", {});
    const otel = { endpoint: collector.endpoint, headers: { "x-ingest-key": "rotated-key-456" }, serviceName: "renamed-gateway", protocol: "http/json", captureContent: true };
    const raw = JSON.stringify({ diagnostics: { otel } });
    const patched = await sock.request("config.patch", { raw, baseHash: snap.hash });
    expect(patched.payload).toMatchObject({ applied: true, restartRequiredPaths: [] });
    server.enqueue({ text: "after the reload" });
    const runId = await chat("retraced", `again, key ${SECRET}`);
    const spans = await collector.waitFor((s) => s.some((span) => span.attributes["openclaw.run_id"] === runId));
    const root = spans.find((s) => s.attributes["openclaw.run_id"] === runId)!;
    expect(root.resource["service.name"]).toBe("renamed-gateway");
    expect(collector.headers.at(-1)!["x-ingest-key"]).toBe("rotated-key-456");
    expect(collector.headers.at(-1)!["content-type"]).toBe("application/json");
    expect(JSON.parse(String(root.attributes["gen_ai.input.messages"]))).toEqual([{ role: "user", parts: [{ type: "text", content: "again, key [redacted]" }] }]);
    expect(JSON.parse(String(root.attributes["gen_ai.output.messages"]))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "after the reload" }], finish_reason: "stop" },
    ]);
    const [instructions] = JSON.parse(String(root.attributes["gen_ai.system_instructions"]));
    expect(instructions.type).toBe("text");
    const sentSystem = systemPromptOf(server.requests.find((r) => lastMessageOf(r).text.startsWith("again, key"))!);
    expect(sentSystem.length).toBeGreaterThan(100);
    expect(instructions.content).toBe(sentSystem);

    // The session's next run exports the conversation it was sent before its own message, redacted.
    server.enqueue({ text: "still here" });
    const nextId = await chat("retraced", "and once more");
    const nextSpans = await collector.waitFor((s) => s.some((span) => span.attributes["openclaw.run_id"] === nextId));
    const nextRoot = nextSpans.find((s) => s.attributes["openclaw.run_id"] === nextId)!;
    expect(JSON.parse(String(nextRoot.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "again, key [redacted]" }] },
      { role: "assistant", parts: [{ type: "text", content: "after the reload" }] },
      { role: "user", parts: [{ type: "text", content: "and once more" }] },
    ]);
    expect(JSON.stringify(nextRoot.attributes)).not.toContain(SECRET);

    // Each model call's span has what that call was sent and its reply: a run that read a file made two.
    server.enqueue({ text: "Let me look.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: `It says the launch code is blue; key ${SECRET}` });
    const toolRunId = await chat("retraced", "read my notes");
    const toolSpans = await collector.waitFor((s) => {
      const root = s.find((span) => span.attributes["openclaw.run_id"] === toolRunId);
      return root !== undefined && s.filter((span) => span.parentSpanId === root.spanId && span.name.startsWith("chat")).length === 2;
    });
    const toolRoot = toolSpans.find((s) => s.attributes["openclaw.run_id"] === toolRunId)!;
    const calls = toolSpans.filter((s) => s.parentSpanId === toolRoot.spanId && s.name.startsWith("chat"));
    const endedWith = (reason: string) => calls.find((s) => String(s.attributes["gen_ai.output.messages"]).includes(`"finish_reason":"${reason}"`));
    const [first, second] = [endedWith("tool_call"), endedWith("stop")];
    const conversation = [
      { role: "user", parts: [{ type: "text", content: "again, key [redacted]" }] },
      { role: "assistant", parts: [{ type: "text", content: "after the reload" }] },
      { role: "user", parts: [{ type: "text", content: "and once more" }] },
      { role: "assistant", parts: [{ type: "text", content: "still here" }] },
      { role: "user", parts: [{ type: "text", content: "read my notes" }] },
    ];
    const toolCall = { type: "tool_call", id: expect.any(String), name: "read", arguments: { path: "notes.txt" } };
    expect(JSON.parse(String(first!.attributes["gen_ai.input.messages"]))).toEqual(conversation);
    expect(JSON.parse(String(first!.attributes["gen_ai.output.messages"]))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "Let me look." }, toolCall], finish_reason: "tool_call" },
    ]);
    const secondInput = JSON.parse(String(second!.attributes["gen_ai.input.messages"]));
    expect(secondInput.slice(0, 6)).toEqual([...conversation, { role: "assistant", parts: [{ type: "text", content: "Let me look." }, toolCall] }]);
    expect(secondInput[6]).toMatchObject({ role: "tool", parts: [{ type: "tool_call_response", id: secondInput[5].parts[1].id }] });
    expect(secondInput[6].parts[0].response).toContain("the launch code is blue");
    expect(JSON.parse(String(second!.attributes["gen_ai.output.messages"]))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "It says the launch code is blue; key [redacted]" }], finish_reason: "stop" },
    ]);
    expect(first!.attributes["gen_ai.system_instructions"]).toBe(toolRoot.attributes["gen_ai.system_instructions"]);
    for (const span of toolSpans) expect(JSON.stringify(span.attributes)).not.toContain(SECRET);
  });

  it("an HTTP completion is traced with source http", async () => {
    server.enqueue({ text: "pong" });
    const res = await fetch(`${gw.httpUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openclaw", messages: [{ role: "user", content: "ping" }] }),
    });
    expect(res.status).toBe(200);
    const listed = await sock.request("traces.list", { limit: 5 });
    const http = listed.payload.traces.find((t: { source: string }) => t.source === "http");
    expect(http).toMatchObject({ outcome: "ok", modelCalls: 1, toolCalls: 0 });
    const got = await sock.request("traces.get", { runId: http.runId });
    expect(got.payload.trace.output).toBe("pong");
  });

  it("a message steered into a running turn is part of that run's trace input, after the message that started it", async () => {
    let release: (() => void) | undefined;
    server.setResponder(async (req) => {
      if (!allTextOf(req).includes("and check the logs too")) {
        await new Promise<void>((resolve) => (release = resolve));
        return { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] };
      }
      return { text: "Both done." };
    });
    try {
      const first = randomUUID();
      await sock.request("chat.send", { sessionKey: "steered", message: "start the work", idempotencyKey: first });
      await waitUntil(() => release !== undefined, 10_000, "the held model call");
      const steered = randomUUID();
      expect((await sock.request("chat.send", { sessionKey: "steered", message: "and check the logs too", idempotencyKey: steered })).ok).toBe(true);
      release!();
      await sock.waitFor((f) => f.event === "chat" && f.payload.runId === first && f.payload.state === "final", 20_000);
      let trace: { input: string[] } | undefined;
      for (const deadline = Date.now() + 10_000; !trace && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        const got = await sock.request("traces.get", { runId: first });
        if (got.ok) trace = got.payload.trace;
      }
      expect(trace?.input).toEqual(["start the work", "and check the logs too"]);
    } finally {
      server.setResponder(undefined);
    }
  });
});
