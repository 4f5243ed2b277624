import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests } from "../helpers/reliability.js";
import { holdAnswerTo, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * `messages.queue.drop: "new"`: a message that arrives when `cap` messages already wait is
 * refused, and its sender is told to send it again. A refused message is not kept: no later
 * turn sees it, so sending it again does not put it before the model twice.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-refused-token", { mode: "followup", cap: 1, drop: "new" });
});
afterAll(async () => {
  await q?.close();
});

describe("a message refused by a full queue", () => {
  it("is not part of any later turn's history nor of chat.history", async () => {
    const first = holdAnswerTo(q.server, "first");
    const sessionKey = "agent:main:refused";
    const send = (message: string, key: string) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });
    expect((await send("first", "r-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("second", "r-2")).ok).toBe(true);
    const refused = await send("refused-text", "r-3");
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({ code: "INVALID_REQUEST", details: { reason: "queue-full" } });
    first.release();
    for (const runId of ["r-1", "r-2"]) expect((await q.wait(runId)).payload).toMatchObject({ status: "ok" });
    const requests = chatRequests(q.server);
    expect(requests.length).toBe(2);
    for (const request of requests) expect(JSON.stringify(request.body)).not.toContain("refused-text");
    const history = await q.rpc.request("chat.history", { sessionKey });
    expect(JSON.stringify(history.payload)).not.toContain("refused-text");
  }, 40_000);
});
