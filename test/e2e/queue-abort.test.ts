import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { holdAnswerTo, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * `chat.abort { runId }` for a message that still waits in the session's queue: that message
 * ends aborted at once and is not answered; the messages waiting with it, and the turn that runs,
 * go on without it.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-abort-token", { debounceMs: 300 });
});
afterAll(async () => {
  await q?.close();
});

describe("aborting one queued message", () => {
  it("collect: the aborted message ends at once and the rest of its batch still runs without it", async () => {
    q.server.reset();
    const sessionKey = "agent:main:abort-collect";
    const first = holdAnswerTo(q.server, "c-first");
    const send = (message: string, key: string) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key, queueMode: "collect" });
    expect((await send("c-first", "c-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("c-second", "c-2")).ok).toBe(true);
    expect((await send("c-third", "c-3")).ok).toBe(true);
    const aborted = await q.rpc.request("chat.abort", { sessionKey, runId: "c-2" });
    expect(aborted.payload).toMatchObject({ aborted: true, runIds: ["c-2"] });
    // Ended while the first turn still runs.
    expect((await q.wait("c-2")).payload).toMatchObject({ runId: "c-2", status: "error", error: "aborted" });
    first.release();
    expect((await q.wait("c-1")).payload).toMatchObject({ status: "ok" });
    expect((await q.wait("c-3")).payload).toMatchObject({ runId: "c-3", status: "ok" });
    const requests = chatRequests(q.server);
    expect(requests.length).toBe(2);
    expect(JSON.stringify(requests[1]!.body)).toContain("c-third");
    expect(lastUserText(requests[1]!)).not.toContain("c-second");
  }, 40_000);

  it("steer: a steered message aborted before the running turn took it is not handed to that turn", async () => {
    q.server.reset();
    const sessionKey = "agent:main:abort-steer";
    // The first answer is a tool call, so the turn makes a second model call (where steering is taken).
    const first = holdAnswerTo(q.server, "s-first", () => ({ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] }));
    const send = (message: string, key: string) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });
    expect((await send("s-first", "s-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("s-second", "s-2")).ok).toBe(true);
    const aborted = await q.rpc.request("chat.abort", { sessionKey, runId: "s-2" });
    expect(aborted.payload).toMatchObject({ aborted: true, runIds: ["s-2"] });
    expect((await q.wait("s-2")).payload).toMatchObject({ runId: "s-2", status: "error", error: "aborted" });
    first.release();
    expect((await q.wait("s-1")).payload).toMatchObject({ status: "ok" });
    const requests = chatRequests(q.server);
    expect(requests.length).toBe(2);
    for (const request of requests) expect(JSON.stringify(request.body)).not.toContain("s-second");
  }, 40_000);
});
