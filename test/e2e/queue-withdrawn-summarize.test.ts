import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { holdFirstThenSend, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * `drop: summarize`: a message pushed out of the full queue reaches the model as a summary line
 * with the next turn, so it stays part of the conversation. Only when that summary can no longer
 * reach the model (the message that would carry it was aborted) is the message withdrawn: no
 * later turn sends it.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-withdrawn-summarize-token", { mode: "followup", cap: 1, drop: "summarize" });
});
afterAll(async () => {
  await q?.close();
});

/** The indexes of the model requests (since the last reset) whose body holds `text`. */
const requestsWith = (text: string): number[] => chatRequests(q.server).flatMap((r, i) => (JSON.stringify(r.body).includes(text) ? [i] : []));

describe("a message summarized out of a full queue", () => {
  it("reaches the model through its summary and stays in later turns' history", async () => {
    q.server.reset();
    // The queue holds one: z-second is summarized for z-third.
    const { send, release } = await holdFirstThenSend(q, "agent:main:summarized-kept", "z-first", [
      ["z-second", "z-2"],
      ["z-third", "z-3"],
    ]);
    release();
    for (const runId of ["z-first-run", "z-2", "z-3"]) expect((await q.wait(runId)).payload).toMatchObject({ status: "ok" });
    expect((await send("z-after", "z-4")).ok).toBe(true);
    expect((await q.wait("z-4")).payload).toMatchObject({ status: "ok" });
    const requests = chatRequests(q.server);
    expect(requests.length).toBe(3);
    expect(lastUserText(requests[1]!)).toContain('summarized: "z-second"');
    expect(requestsWith("z-second")).toEqual([1, 2]);
  }, 40_000);

  it("is withdrawn with the message that would have carried its summary when that one is aborted", async () => {
    q.server.reset();
    const sessionKey = "agent:main:summarized-lost";
    const { send, release } = await holdFirstThenSend(q, sessionKey, "y-first", [
      ["y-second", "y-2"],
      ["y-third", "y-3"],
    ]);
    expect((await q.rpc.request("chat.abort", { sessionKey, runId: "y-3" })).ok).toBe(true);
    for (const runId of ["y-2", "y-3"]) expect((await q.wait(runId)).payload).toMatchObject({ status: "error", error: "aborted" });
    release();
    expect((await q.wait("y-first-run")).payload).toMatchObject({ status: "ok" });
    expect((await send("y-after", "y-4")).ok).toBe(true);
    expect((await q.wait("y-4")).payload).toMatchObject({ status: "ok" });
    expect(chatRequests(q.server).length).toBe(2);
    expect(requestsWith("y-second")).toEqual([]);
    expect(requestsWith("y-third")).toEqual([]);
    const history = await q.rpc.request("chat.history", { sessionKey });
    expect(JSON.stringify(history.payload)).not.toMatch(/y-second|y-third/);
  }, 40_000);
});
