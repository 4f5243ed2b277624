import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests } from "../helpers/reliability.js";
import { holdAnswerTo, replyText, sendTwoBehindHeldFirst, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * One turn may answer several acknowledged messages: a collected batch, or messages steered into
 * a running turn. The turn streams under one run id; every other run id it answers still gets its
 * own terminal `chat` event (the turn's outcome, without the reply text the streaming run's final
 * already carries), so a client waiting for its run's end gets it and none shows the reply twice.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-chat-events-token", { debounceMs: 0 });
});
afterAll(async () => {
  await q?.close();
});

/** Index of a run's terminal chat event among everything the connection received. */
function terminalIndex(runId: string): number {
  return q.rpc.sock.frames.findIndex((f) => f.event === "chat" && f.payload?.runId === runId && ["final", "error", "aborted"].includes(f.payload.state));
}

/**
 * In session `agent:main:events-<p>`: `<p>-first` (run `<p>-1`) runs with its answer held, and
 * `<p>-second`, `<p>-third` (runs `<p>-2`, `<p>-3`) are collected behind it.
 */
async function collectBehindHeldFirst(p: string) {
  q.server.reset();
  const sessionKey = `agent:main:events-${p}`;
  const first = await sendTwoBehindHeldFirst(q.server, p, (message, key) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key, queueMode: "collect" }));
  return { sessionKey, first };
}

describe("chat events of runs answered by one turn", () => {
  it("collect: each merged message's run ends with its own final after the final that carries the reply", async () => {
    const { sessionKey, first } = await collectBehindHeldFirst("m");
    first.release();
    expect(replyText(await q.chatEnd("m-1"))).toBe("A:m-first");
    // The batch streams under its last message's run; that final carries the reply.
    const streamed = await q.chatEnd("m-3");
    expect(streamed).toMatchObject({ state: "final" });
    expect(replyText(streamed)).toContain("m-third");
    const merged = await q.chatEnd("m-2");
    expect(merged).toMatchObject({ runId: "m-2", sessionKey, state: "final", stopReason: "stop" });
    expect(merged.message).toBeUndefined();
    expect(q.chatEvents("m-2").map((e) => e.state)).toEqual(["final"]);
    expect(terminalIndex("m-2")).toBeGreaterThan(terminalIndex("m-3"));
    expect(chatRequests(q.server).length).toBe(2);
  }, 40_000);

  it("steer: a steered message's run ends with its own final once the turn it joined has answered", async () => {
    q.server.reset();
    const sessionKey = "agent:main:events-steer";
    // A tool call first, so the turn makes a second model call, where the steered message joins.
    const first = holdAnswerTo(q.server, "t-first", () => ({ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] }));
    const send = (message: string, key: string) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });
    expect((await send("t-first", "t-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("t-second", "t-2")).payload).toMatchObject({ status: "started", queued: "steered" });
    first.release();
    const streamed = await q.chatEnd("t-1");
    expect(streamed).toMatchObject({ state: "final" });
    expect(replyText(streamed)).toBe("A:t-second");
    const steered = await q.chatEnd("t-2");
    expect(steered).toMatchObject({ runId: "t-2", state: "final" });
    expect(steered.message).toBeUndefined();
    expect(q.chatEvents("t-2").map((e) => e.state)).toEqual(["final"]);
    expect(terminalIndex("t-2")).toBeGreaterThan(terminalIndex("t-1"));
    expect((await q.wait("t-2")).payload).toMatchObject({ status: "ok" });
  }, 40_000);

  it("a merged turn that is aborted ends every run it answers aborted", async () => {
    const { sessionKey, first } = await collectBehindHeldFirst("x");
    const batch = holdAnswerTo(q.server, "x-second\n\nx-third");
    first.release();
    await batch.arrived;
    expect((await q.rpc.request("chat.abort", { sessionKey })).payload).toMatchObject({ aborted: true, runIds: ["x-2", "x-3"] });
    for (const runId of ["x-2", "x-3"]) expect(await q.chatEnd(runId)).toMatchObject({ runId, state: "aborted" });
    batch.release();
  }, 40_000);
});
