import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests } from "../helpers/reliability.js";
import { holdAnswerTo, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * `collect` queue mode: messages that arrive while a turn runs wait until the session has been
 * quiet for `messages.queue.debounceMs`, then go to the model as one turn. The running turn may
 * end inside that quiet window; the batch must still start once the window has passed.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-collect-token", { mode: "collect", debounceMs: 3_000 });
});
afterAll(async () => {
  await q?.close();
});

describe("collect mode", () => {
  it("starts the collected batch after the quiet window when the running turn ended inside it", async () => {
    const first = holdAnswerTo(q.server, "first");
    const send = (message: string, key: string) => q.rpc.request("chat.send", { sessionKey: "agent:main:collect", message, idempotencyKey: key });
    expect((await send("first", "c-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    // Both wait in the inbox while the first turn holds; the first turn then ends well inside
    // their quiet window.
    expect((await send("second", "c-2")).ok).toBe(true);
    expect((await send("third", "c-3")).ok).toBe(true);
    first.release();
    expect((await q.wait("c-1")).payload).toMatchObject({ status: "ok" });
    for (const runId of ["c-2", "c-3"]) expect((await q.wait(runId)).payload).toMatchObject({ runId, status: "ok" });
    // One model request for the first turn, one for the batch carrying both messages.
    const requests = chatRequests(q.server);
    expect(requests.length).toBe(2);
    const batch = JSON.stringify(requests[1]!.body);
    expect(batch).toContain("second");
    expect(batch).toContain("third");
  }, 40_000);
});
