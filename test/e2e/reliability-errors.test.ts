import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, makeAgentState, messageText, removeFastTempDirs, startOn, waitUntil } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator, type Frame } from "../helpers/ws-client.js";

/**
 * Issue 4 § Reliability: "A model error, a timeout and an abort each end the run with a clear
 * `chat` error/aborted event and leave the session usable."
 *
 * Each case ends one run badly, then the same session must answer a normal message, and its
 * history must hold both turns. The timeout case has a gateway of its own with
 * `agents.defaults.timeoutSeconds: 2`, so that no other case depends on how fast a loaded machine
 * finishes a run. Aborted replies stream one chunk a second: the abort always lands mid-stream.
 */

const TOKEN = "rel-errors-token";
let server: FakeModelServer;
let gw: GatewayProcess;
let rpc: Rpc;
const events: Frame[] = [];

beforeAll(async () => {
  server = await startFakeModelServer();
  ({ gw, rpc } = await startWithEvents({}));
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

async function startWithEvents(agentDefaults: Record<string, unknown>): Promise<{ gw: GatewayProcess; rpc: Rpc }> {
  const started = await startOn(makeAgentState(server, { agentDefaults }), TOKEN);
  const client = new Rpc((await openOperator(started.url, TOKEN)).sock);
  client.onEvent((f) => {
    if (f.event === "chat" || f.event === "agent") events.push(f);
  });
  return { gw: started, rpc: client };
}

const chatOf = (runId: string) => events.filter((f) => f.event === "chat" && f.payload.runId === runId).map((f) => f.payload);
const lifecycleOf = (runId: string) => events.filter((f) => f.event === "agent" && f.payload.runId === runId && f.payload.stream === "lifecycle").map((f) => f.payload.data);

async function terminalChat(runId: string, timeoutMs = 10_000): Promise<any> {
  await waitUntil(() => chatOf(runId).some((p) => ["final", "error", "aborted"].includes(p.state)), timeoutMs, `a terminal chat event for ${runId}`);
  const terminal = chatOf(runId).filter((p) => ["final", "error", "aborted"].includes(p.state));
  expect(terminal, `exactly one terminal chat event for ${runId}`).toHaveLength(1);
  return terminal[0];
}

async function send(sessionKey: string, message: string, idempotencyKey: string): Promise<void> {
  const res = await rpc.request("chat.send", { sessionKey, message, idempotencyKey });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  expect(res.payload).toMatchObject({ runId: idempotencyKey, status: "started" });
}

/** The session answers a normal message afterwards, and keeps both turns. */
async function expectUsable(sessionKey: string, tag: string, failedText: string): Promise<void> {
  server.enqueue({ text: `fine again after ${tag}` });
  const before = chatRequests(server).length;
  await send(sessionKey, `hello after ${tag}`, `${tag}-2`);
  const final = await terminalChat(`${tag}-2`);
  expect(final.state).toBe("final");
  expect(messageText(final.message)).toBe(`fine again after ${tag}`);
  const waited = await rpc.request("agent.wait", { runId: `${tag}-2`, timeoutMs: 5_000 });
  expect(waited.payload.status).toBe("ok");
  expect(chatRequests(server).length).toBe(before + 1);
  expect(lastUserText(chatRequests(server).at(-1)!)).toBe(`hello after ${tag}`);

  const history = await rpc.request("chat.history", { sessionKey });
  expect(history.payload.sessionInfo).toMatchObject({ hasActiveRun: false, activeRunIds: [] });
  const rows = history.payload.messages.map((m: any) => `${m.role}:${messageText(m)}`);
  expect(rows).toContain(`user:${failedText}`);
  expect(rows.slice(-2)).toEqual([`user:hello after ${tag}`, `assistant:fine again after ${tag}`]);
}

describe("a failed run ends with a clear chat event and leaves the session usable", () => {
  it("model HTTP 500 → chat error with errorMessage, then a normal answer", async () => {
    // The only model and key: the SDK retries twice (docs/models.md), so the provider fails three times.
    server.enqueue(...Array.from({ length: 3 }, () => ({ status: 500, headers: { "retry-after-ms": "10" } })));
    await send("errors-500", "this one fails", "e500-1");
    const terminal = await terminalChat("e500-1");
    expect(terminal).toMatchObject({ state: "error", sessionKey: "agent:main:errors-500" });
    expect(typeof terminal.errorMessage).toBe("string");
    expect(terminal.errorMessage.length).toBeGreaterThan(0);
    expect(terminal.errorMessage).not.toContain("sk-x");
    expect(lifecycleOf("e500-1").at(-1)).toMatchObject({ phase: "error" });
    const waited = await rpc.request("agent.wait", { runId: "e500-1", timeoutMs: 5_000 });
    expect(waited.payload).toMatchObject({ runId: "e500-1", status: "error" });
    expect(waited.payload.error).toBeTruthy();
    // A re-send of the failed key reports the failure; it does not run again.
    const dup = await rpc.request("chat.send", { sessionKey: "errors-500", message: "this one fails", idempotencyKey: "e500-1" });
    expect(dup.payload).toEqual({ runId: "e500-1", status: "error" });
    await expectUsable("errors-500", "e500", "this one fails");
  });

  it("chat.abort mid-stream → chat aborted, then a normal answer", async () => {
    const longText = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    server.enqueue({ text: longText, chunkDelayMs: 1_000 });
    await send("errors-abort", "this one is aborted", "eabort-1");
    await waitUntil(() => chatOf("eabort-1").some((p) => p.state === "delta"), 5_000, "the first delta");
    const aborted = await rpc.request("chat.abort", { sessionKey: "errors-abort", runId: "eabort-1" });
    expect(aborted.payload).toEqual({ ok: true, aborted: true, runIds: ["eabort-1"] });
    const terminal = await terminalChat("eabort-1");
    expect(terminal.state).toBe("aborted");
    // It stopped mid-stream: the partial text is not the whole reply.
    const partial = messageText(terminal.message ?? {});
    expect(partial.length).toBeLessThan(longText.length);
    expect(lifecycleOf("eabort-1").at(-1)).toMatchObject({ phase: "end", aborted: true });
    const waited = await rpc.request("agent.wait", { runId: "eabort-1", timeoutMs: 5_000 });
    expect(waited.payload).toMatchObject({ status: "error", error: "aborted" });
    // Aborting again finds nothing running.
    const again = await rpc.request("chat.abort", { sessionKey: "errors-abort" });
    expect(again.payload).toEqual({ ok: true, aborted: false, runIds: [] });
    await expectUsable("errors-abort", "eabort", "this one is aborted");
  });

  it("a malformed (truncated) model stream → chat error, then a normal answer", async () => {
    server.enqueue({ malformed: "truncated" });
    await send("errors-malformed", "this one breaks off", "emal-1");
    const terminal = await terminalChat("emal-1");
    expect(terminal.state).toBe("error");
    expect(terminal.errorMessage).toBeTruthy();
    await expectUsable("errors-malformed", "emal", "this one breaks off");
  });

  it("chat.abort of a session also ends its queued run with a chat event, and the session stays usable", async () => {
    server.enqueue({ text: Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 1_000 });
    await send("errors-abort-queued", "first, streaming", "eq-1");
    await waitUntil(() => chatOf("eq-1").some((p) => p.state === "delta"), 5_000, "the first delta");
    // Arrives while eq-1 runs: acknowledged as started (queued behind it).
    const queued = await rpc.request("chat.send", { sessionKey: "errors-abort-queued", message: "second, waiting", idempotencyKey: "eq-2", queueMode: "followup" });
    expect(queued.payload).toMatchObject({ runId: "eq-2", status: "started" });
    const before = chatRequests(server).length;
    const aborted = await rpc.request("chat.abort", { sessionKey: "errors-abort-queued" });
    expect(aborted.payload).toMatchObject({ ok: true, aborted: true });
    expect((await terminalChat("eq-1")).state).toBe("aborted");
    // The queued run never reaches the model, and agent.wait reports it ended…
    const waited = await rpc.request("agent.wait", { runId: "eq-2", timeoutMs: 2_000 });
    expect(waited.payload).toMatchObject({ runId: "eq-2", status: "error", error: "aborted" });
    expect(chatRequests(server).length).toBe(before);
    // …and a client that only watches `chat` events (WebChat) is told too, not left waiting.
    expect((await terminalChat("eq-2", 2_000)).state).toBe("aborted");
    await expectUsable("errors-abort-queued", "eq-after", "first, streaming");
  });
});

describe("a run over agents.defaults.timeoutSeconds (2 s)", () => {
  let mainGateway: { gw: GatewayProcess; rpc: Rpc };
  beforeAll(async () => {
    mainGateway = { gw, rpc };
    ({ gw, rpc } = await startWithEvents({ timeoutSeconds: 2 }));
  });
  afterAll(async () => {
    rpc?.sock.close();
    await gw?.stop();
    ({ gw, rpc } = mainGateway);
  });

  it("run timeout (timeoutSeconds 2, model silent for 30 s) → chat error naming the timeout, then a normal answer", async () => {
    server.enqueue({ text: "far too late", delayMs: 30_000 });
    const started = Date.now();
    await send("errors-timeout", "this one times out", "etimeout-1");
    const terminal = await terminalChat("etimeout-1", 20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(terminal.state).toBe("error");
    expect(terminal.errorMessage).toMatch(/time/i);
    expect(terminal.errorKind).toBe("timeout");
    const waited = await rpc.request("agent.wait", { runId: "etimeout-1", timeoutMs: 5_000 });
    expect(waited.payload.status).toBe("timeout");
    await expectUsable("errors-timeout", "etimeout", "this one times out");
    // The late reply never surfaced anywhere.
    expect(events.some((f) => JSON.stringify(f.payload).includes("far too late"))).toBe(false);
  });
});
