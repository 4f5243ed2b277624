import { randomUUID } from "node:crypto";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { askAndWait } from "../helpers/chat-session.js";

const fakes = useFakeModelGateway();

const modelRequests = () => fakes.model.requests.filter((r) => r.path.endsWith("/chat/completions")).length;

describe("chat.send", () => {
  it("acks with started, streams chat deltas and a final, and keeps history", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "Hello there, friend.", chunkDelayMs: 5 });
    const key = randomUUID();
    const res = await sock.request("chat.send", { sessionKey: "chat-a", message: "hi", idempotencyKey: key });
    expect(res.payload).toEqual({ runId: key, status: "started" });
    const final = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    expect(final.payload.sessionKey).toBe("agent:main:chat-a");
    expect(final.payload.message.content[0].text).toBe("Hello there, friend.");
    const deltas = sock.frames.filter((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "delta");
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.map((d) => d.payload.deltaText).join("")).toBe("Hello there, friend.");
    const history = await sock.request("chat.history", { sessionKey: "chat-a" });
    expect(history.payload.sessionKey).toBe("agent:main:chat-a");
    expect(history.payload.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect(history.payload.messages[0].content[0].text).toBe("hi");
    sock.close();
  });

  it("an idempotencyKey already used for another session is refused, naming that session; the first message keeps it", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "first", delayMs: 200 });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "reuse-a", message: "one", idempotencyKey: key });
    for (const [method, params] of [
      ["chat.send", { sessionKey: "reuse-b", message: "two", idempotencyKey: key }],
      ["agent", { sessionKey: "reuse-b", message: "two", idempotencyKey: key }],
    ] as const) {
      const res = await sock.request(method, params);
      expect(res.error, method).toMatchObject({
        code: "INVALID_REQUEST",
        message: `idempotencyKey "${key}" was already used for a message to agent:main:reuse-a; send this message with a new idempotencyKey`,
      });
    }
    expect((await sock.request("chat.history", { sessionKey: "reuse-b" })).payload.messages).toEqual([]);
    // Re-sending to the first session is still a duplicate of its message.
    expect((await sock.request("chat.send", { sessionKey: "reuse-a", message: "one", idempotencyKey: key })).payload).toEqual({ runId: key, status: "in_flight" });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    sock.close();
  });

  it("the same idempotencyKey never starts a second run", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "once", delayMs: 200 });
    const key = randomUUID();
    const before = modelRequests();
    await sock.request("chat.send", { sessionKey: "chat-b", message: "do it once", idempotencyKey: key });
    const dup = await sock.request("chat.send", { sessionKey: "chat-b", message: "do it once", idempotencyKey: key });
    expect(dup.payload).toEqual({ runId: key, status: "in_flight" });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    const after = await sock.request("chat.send", { sessionKey: "chat-b", message: "do it once", idempotencyKey: key });
    expect(after.payload).toEqual({ runId: key, status: "ok" });
    expect(modelRequests() - before).toBe(1);
    const history = await sock.request("chat.history", { sessionKey: "chat-b" });
    expect(history.payload.messages.filter((m: any) => m.role === "user")).toHaveLength(1);
    sock.close();
  });

  it("chat.abort stops a streaming run with an aborted event, and the session still answers", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "a very long answer ".repeat(40), chunkDelayMs: 30 });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "chat-c", message: "talk a lot", idempotencyKey: key });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "delta");
    const abort = await sock.request("chat.abort", { sessionKey: "chat-c" });
    expect(abort.payload).toEqual({ ok: true, aborted: true, runIds: [key] });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "aborted");
    fakes.model.enqueue({ text: "still here" });
    const next = randomUUID();
    await sock.request("chat.send", { sessionKey: "chat-c", message: "you there?", idempotencyKey: next });
    const final = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === next && f.payload.state === "final");
    expect(final.payload.message.content[0].text).toBe("still here");
    sock.close();
  });

  it("a model error ends the run with a chat error event", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    // The only model and key: the SDK retries twice (docs/models.md), so the provider fails three times.
    fakes.model.enqueue(...Array.from({ length: 3 }, () => ({ status: 500, headers: { "retry-after-ms": "10" } })));
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "chat-d", message: "fail please", idempotencyKey: key });
    const err = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "error");
    expect(err.payload.errorMessage).toBeTruthy();
    expect(JSON.stringify(err.payload)).not.toContain("sk-fake");
    sock.close();
  });

  it("rejects an empty message and unknown params", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    expect((await sock.request("chat.send", { sessionKey: "x", message: "  ", idempotencyKey: "k1" })).error.message).toBe("message or attachment required");
    expect((await sock.request("chat.send", { sessionKey: "x", message: "hi", idempotencyKey: "k2", nope: 1 })).error.code).toBe("INVALID_REQUEST");
    expect((await sock.request("chat.send", { sessionKey: "x".repeat(600), message: "hi", idempotencyKey: "k3" })).error.code).toBe("INVALID_REQUEST");
    sock.close();
  });
});

describe("agent", () => {
  it("answers twice with the same id (accepted, then the result) with agent events between", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token, { caps: ["tool-events"] });
    const plain = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "x" } }] }, { text: "Wrote it." });
    const key = randomUUID();
    const id = randomUUID();
    sock.send({ type: "req", id, method: "agent", params: { message: "write a file", idempotencyKey: key, sessionKey: "agent-a" } });
    const ack = await sock.waitFor((f) => f.type === "res" && f.id === id);
    expect(ack.payload).toMatchObject({ runId: key, status: "accepted" });
    const final = await sock.waitFor((f) => f.type === "res" && f.id === id && f.payload.status !== "accepted", 10_000);
    expect(final.payload).toMatchObject({ runId: key, status: "ok", result: { payloads: [{ text: "Wrote it." }] } });
    expect(final.payload.result.meta.durationMs).toBeGreaterThanOrEqual(0);
    const events = sock.frames.filter((f) => f.event === "agent" && f.payload.runId === key);
    const lifecycle = events.filter((e) => e.payload.stream === "lifecycle").map((e) => e.payload.data.phase);
    expect(lifecycle).toEqual(["start", "end"]);
    const seqs = events.map((e) => e.payload.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.some((e) => e.payload.stream === "tool" && e.payload.data.phase === "result" && e.payload.data.name === "write")).toBe(true);
    // A connection without the tool-events cap sees the run but not its tool events.
    await plain.sock.waitFor((f) => f.event === "agent" && f.payload.runId === key && f.payload.data?.phase === "end");
    expect(plain.sock.frames.some((f) => f.event === "agent" && f.payload.runId === key && f.payload.stream === "tool")).toBe(false);
    const wait = await sock.request("agent.wait", { runId: key, timeoutMs: 1000 });
    expect(wait.payload).toMatchObject({ runId: key, status: "ok" });
    sock.close();
    plain.sock.close();
  });

  it("agent.wait times out without stopping the run; unknown runs are AGENT_RESULT_NOT_FOUND", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "slow", delayMs: 600 });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "agent-b", message: "slowly", idempotencyKey: key });
    expect((await sock.request("agent.wait", { runId: key, timeoutMs: 50 })).payload.status).toBe("timeout");
    expect((await sock.request("agent.wait", { runId: key, timeoutMs: 5000 })).payload.status).toBe("ok");
    expect((await sock.request("agent.wait", { runId: "nope" })).error.code).toBe("AGENT_RESULT_NOT_FOUND");
    sock.close();
  });
});

describe("sessions.*", () => {
  it("lists, describes, patches, resets and deletes sessions", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    await sock.request("sessions.subscribe", {});
    fakes.model.enqueue({ text: "ok" });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "manage-me", message: "hello", idempotencyKey: key });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    await sock.waitFor((f) => f.event === "sessions.changed" && f.payload.key === "agent:main:manage-me");
    const list = await sock.request("sessions.list", {});
    const row = list.payload.sessions.find((s: any) => s.key === "agent:main:manage-me");
    expect(row).toMatchObject({ kind: "direct", hasActiveRun: false });
    expect(row.totalTokens).toBeGreaterThanOrEqual(0);
    const described = await sock.request("sessions.describe", { key: "manage-me" });
    expect(described.payload.session.messageCount).toBe(2);
    const patched = await sock.request("sessions.patch", { key: "manage-me", label: "Important" });
    expect(patched.payload.entry.label).toBe("Important");
    const oldId = row.sessionId;
    const reset = await sock.request("sessions.reset", { key: "manage-me" });
    expect(reset.payload.entry.sessionId).not.toBe(oldId);
    expect((await sock.request("chat.history", { sessionKey: "manage-me" })).payload.messages).toEqual([]);
    expect((await sock.request("sessions.delete", { key: "manage-me" })).payload.deleted).toBe(true);
    expect((await sock.request("sessions.describe", { key: "manage-me" })).payload).toEqual({ session: null });
    expect((await sock.request("sessions.delete", { key: "main" })).error.message).toMatch(/main session cannot be deleted/);
    sock.close();
  });

  it("sessions.delete refuses deleteTranscript: false and changes nothing; agentId scopes a bare key", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "ok" });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "keep-transcript", message: "hello", idempotencyKey: key });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    const refused = await sock.request("sessions.delete", { key: "keep-transcript", deleteTranscript: false });
    expect(refused.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(refused.error.message).toMatch(/deleteTranscript: false is not supported.*\.deleted\.<timestamp> \(omit deleteTranscript\)/);
    expect((await sock.request("sessions.describe", { key: "keep-transcript" })).payload.session.messageCount).toBe(2);
    const deleted = await sock.request("sessions.delete", { key: "keep-transcript", agentId: "main", deleteTranscript: true });
    expect(deleted.payload).toMatchObject({ ok: true, key: "agent:main:keep-transcript", deleted: true });
    expect((await sock.request("sessions.describe", { key: "keep-transcript" })).payload).toEqual({ session: null });
    sock.close();
  });

  it("/new in chat.send resets the session", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "first" });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "resettable", message: "one", idempotencyKey: key });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    const reset = await sock.request("chat.send", { sessionKey: "resettable", message: "/new", idempotencyKey: randomUUID() });
    expect(reset.payload).toMatchObject({ status: "ok", reset: true });
    expect((await sock.request("chat.history", { sessionKey: "resettable" })).payload.messages).toEqual([]);
    sock.close();
  });

  it("/new <message> in chat.send resets the session and runs the message there under its key; the same key again changes nothing", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    fakes.model.enqueue({ text: "first" });
    await askAndWait(sock, "fresh-start", "one");
    fakes.model.enqueue({ text: "a fresh answer" });
    const key = randomUUID();
    const sent = await sock.request("chat.send", { sessionKey: "fresh-start", message: "/new what now", idempotencyKey: key });
    expect(sent.payload).toMatchObject({ runId: key, status: "started" });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    const texts = async () =>
      (await sock.request("chat.history", { sessionKey: "fresh-start" })).payload.messages.map((m: { content: { text?: string }[] }) => m.content.map((c) => c.text).join(""));
    expect(await texts()).toEqual(["what now", "a fresh answer"]);
    const again = await sock.request("chat.send", { sessionKey: "fresh-start", message: "/new what now", idempotencyKey: key });
    expect(again.payload).toMatchObject({ runId: key });
    expect(await texts()).toEqual(["what now", "a fresh answer"]);
    sock.close();
  });

  it("models.list and agents.list describe the catalog", async () => {
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    const models = await sock.request("models.list", {});
    expect(models.payload.models.some((m: any) => m.provider === "fake" && m.id === "fake-model")).toBe(true);
    const agents = await sock.request("agents.list", {});
    expect(agents.payload).toMatchObject({ defaultId: "main", mainKey: "main", agents: [{ id: "main" }] });
    sock.close();
  });
});

describe("OpenAI-compatible HTTP through the gateway", () => {
  it("the openai SDK gets answers, streamed and not, and `user` keeps one session", async () => {
    const client = new OpenAI({ baseURL: `${fakes.gw.httpUrl}/v1`, apiKey: fakes.gw.token! });
    fakes.model.enqueue({ text: "plain answer" });
    const completion = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "hi" }], user: "alice" });
    expect(completion.choices[0]!.message.content).toBe("plain answer");
    fakes.model.enqueue({ text: "streamed answer" });
    const stream = await client.chat.completions.create({
      model: "openclaw/main",
      messages: [{ role: "user", content: "again" }],
      user: "alice",
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("streamed answer");
    const { sock } = await openOperator(fakes.gw.url, fakes.gw.token);
    const history = await sock.request("chat.history", { sessionKey: "agent:main:openai-user:alice" });
    expect(history.payload.messages.filter((m: any) => m.role === "user")).toHaveLength(2);
    sock.close();
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(expect.arrayContaining(["openclaw", "openclaw/main"]));
  });
});

describe("CLI through the gateway", () => {
  it("openclaw agent, sessions and status", async () => {
    const env = { OPENCLAW_STATE_DIR: fakes.gw.stateDir, OPENCLAW_GATEWAY_TOKEN: fakes.gw.token };
    fakes.model.enqueue({ text: "CLI answer" });
    const agent = await runCli(["agent", "-m", "from the cli", "--session-key", "cli-session", "--json"], env);
    expect(agent.code).toBe(0);
    expect(JSON.parse(agent.output).payloads).toEqual([{ text: "CLI answer", mediaUrl: null }]);
    const sessions = await runCli(["sessions", "--json"], env);
    expect(JSON.parse(sessions.output).sessions.some((s: any) => s.key === "agent:main:cli-session")).toBe(true);
    const text = await runCli(["sessions"], env);
    expect(text.output).toContain("agent:main:cli-session");
    const status = await runCli(["status"], env);
    expect(status.code).toBe(0);
    expect(status.output).toContain("Gateway: reachable");
  });

  it("sessions --agent with an agent the gateway does not know fails, as memory and tools do", async () => {
    const env = { OPENCLAW_STATE_DIR: fakes.gw.stateDir, OPENCLAW_GATEWAY_TOKEN: fakes.gw.token };
    const nobody = await runCli(["sessions", "--agent", "nobody"], env);
    expect(nobody.code).toBe(1);
    expect(nobody.output).toContain('unknown agent "nobody"; known agents: main');
    const main = await runCli(["sessions", "--agent", "main", "--json"], env);
    expect(main.code).toBe(0);
  });
});
