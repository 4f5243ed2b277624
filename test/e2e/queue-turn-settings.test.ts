import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeReply, RecordedRequest } from "../fakes/model-server.js";
import { chatRequests, lastUserText, requestMessages } from "../helpers/reliability.js";
import { holdAnswerTo, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * A message's own turn settings (`chat.send` `thinking` / `timeoutMs`, `agent` `promptMode`,
 * `disableMessageTool`, `timeout`, …) apply to the turn that answers it also when it waited
 * behind a busy session, and messages share a turn only when their settings are equal: such a
 * message is never steered into a turn with other settings, nor a plain one into its turn, and
 * `collect` / `interrupt` merge only runs of equal settings, in arrival order.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-turn-settings-token", { debounceMs: 300 }, undefined, { reasoning: true });
});
afterAll(async () => {
  await q?.close();
});

/** A tool call first, so the held turn makes a second model call, where steering would join it. */
const toolCallFirst = (): FakeReply => ({ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] });

/** The model requests whose last user message is `text`, in order. */
const requestsFor = (text: string): RecordedRequest[] => chatRequests(q.server).filter((r) => lastUserText(r) === text);
const toolNames = (request: RecordedRequest): string[] => ((request.body?.tools ?? []) as { function?: { name?: string } }[]).map((t) => t.function?.name ?? "");
const systemPrompt = (request: RecordedRequest): string =>
  requestMessages(request)
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.text)
    .join("\n");
const chatSend = (sessionKey: string, message: string, idempotencyKey: string, fields: Record<string, unknown> = {}) =>
  q.rpc.request("chat.send", { sessionKey, message, idempotencyKey, ...fields });

describe("turn settings of a message that waited behind a busy session", () => {
  it("steer: a chat.send with thinking is not steered into the running turn; its own turn runs with that thinking level", async () => {
    q.server.reset();
    const sessionKey = "agent:main:settings-steer";
    const first = holdAnswerTo(q.server, "k-first", toolCallFirst);
    expect((await chatSend(sessionKey, "k-first", "k-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await chatSend(sessionKey, "k-second", "k-2", { thinking: "high" })).payload).toMatchObject({ status: "started", queued: "queued" });
    first.release();
    for (const runId of ["k-1", "k-2"]) expect((await q.wait(runId)).payload).toMatchObject({ runId, status: "ok" });
    const firstTurn = requestsFor("k-first");
    expect(firstTurn.length).toBe(2);
    for (const request of firstTurn) {
      expect(request.body.reasoning_effort).toBeUndefined();
      expect(JSON.stringify(request.body)).not.toContain("k-second");
    }
    expect(requestsFor("k-second").map((r) => r.body.reasoning_effort)).toEqual(["high"]);
  }, 40_000);

  it("an agent run with promptMode and disableMessageTool waits for its own turn and runs with them; a plain message is not steered into it", async () => {
    q.server.reset();
    const sessionKey = "agent:main:settings-agent";
    const first = holdAnswerTo(q.server, "a-first", toolCallFirst);
    expect((await chatSend(sessionKey, "a-first", "a-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    const agent = await q.rpc.request("agent", { sessionKey, message: "a-second", idempotencyKey: "a-2", promptMode: "none", disableMessageTool: true });
    expect(agent.payload).toMatchObject({ runId: "a-2", status: "accepted" });
    first.release();
    // Held in its turn's first model call, the agent run gets a plain message behind it.
    const second = holdAnswerTo(q.server, "a-second", toolCallFirst);
    await second.arrived;
    expect((await chatSend(sessionKey, "a-third", "a-3")).payload).toMatchObject({ status: "started", queued: "queued" });
    second.release();
    for (const runId of ["a-1", "a-2", "a-3"]) expect((await q.wait(runId)).payload).toMatchObject({ runId, status: "ok" });
    const agentTurn = requestsFor("a-second");
    expect(agentTurn.length).toBe(2);
    for (const request of agentTurn) {
      expect(toolNames(request)).not.toContain("message");
      expect(toolNames(request).length).toBeGreaterThan(0);
      expect(systemPrompt(request)).not.toContain("## Tooling");
      expect(JSON.stringify(request.body)).not.toContain("a-third");
    }
    // The plain message's turn has the session's settings: the whole prompt and the message tool.
    const plain = requestsFor("a-third");
    expect(plain.length).toBe(1);
    expect(toolNames(plain[0]!)).toContain("message");
    expect(systemPrompt(plain[0]!)).toContain("## Tooling");
  }, 40_000);

  it("a queued chat.send's timeoutMs bounds its own turn: a model that never answers ends it in a timeout", async () => {
    q.server.reset();
    const sessionKey = "agent:main:settings-timeout";
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    q.server.setResponder(async (request) => {
      if (lastUserText(request) === "slow") return { stall: "headers" };
      firstArrived();
      await firstHeld;
      return { text: "A:t-first" };
    });
    expect((await chatSend(sessionKey, "t-first", "t-1")).payload).toMatchObject({ status: "started" });
    await arrived;
    expect((await chatSend(sessionKey, "slow", "t-2", { timeoutMs: 1500 })).payload).toMatchObject({ status: "started" });
    releaseFirst();
    expect(await q.chatEnd("t-1")).toMatchObject({ state: "final" });
    const end = await q.chatEnd("t-2");
    expect(end).toMatchObject({ state: "error" });
    expect(end.errorMessage).toMatch(/timed out/);
  }, 40_000);

  it("collect: only messages with equal settings merge; the others run as consecutive turns in arrival order, each with its own", async () => {
    q.server.reset();
    const sessionKey = "agent:main:settings-collect";
    const send = (message: string, key: string, fields: Record<string, unknown> = {}) => chatSend(sessionKey, message, key, { queueMode: "collect", ...fields });
    const first = holdAnswerTo(q.server, "c-first");
    expect((await send("c-first", "c-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("c-a", "c-2", { thinking: "high" })).ok).toBe(true);
    expect((await send("c-b", "c-3", { thinking: "high" })).ok).toBe(true);
    expect((await send("c-c", "c-4")).ok).toBe(true);
    expect((await send("c-d", "c-5", { thinking: "low" })).ok).toBe(true);
    first.release();
    for (const runId of ["c-1", "c-2", "c-3", "c-4", "c-5"]) expect((await q.wait(runId)).payload).toMatchObject({ runId, status: "ok" });
    expect(chatRequests(q.server).map((r) => [lastUserText(r), r.body.reasoning_effort])).toEqual([
      ["c-first", undefined],
      ["c-a\n\nc-b", "high"],
      ["c-c", undefined],
      ["c-d", "low"],
    ]);
  }, 40_000);

  it("interrupt: the interrupting message's turn runs with its own settings", async () => {
    q.server.reset();
    const sessionKey = "agent:main:settings-interrupt";
    const first = holdAnswerTo(q.server, "i-first");
    expect((await chatSend(sessionKey, "i-first", "i-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await chatSend(sessionKey, "i-now", "i-2", { queueMode: "interrupt", thinking: "high" })).payload).toMatchObject({ queued: "interrupt" });
    expect(await q.chatEnd("i-1")).toMatchObject({ state: "aborted" });
    expect((await q.wait("i-2")).payload).toMatchObject({ status: "ok" });
    first.release();
    expect(requestsFor("i-now").map((r) => r.body.reasoning_effort)).toEqual(["high"]);
  }, 40_000);
});
