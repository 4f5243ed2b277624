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

  it("aborted by its own runId takes its summary out too: the turn that carries the others' never sees it", async () => {
    q.server.reset();
    const sessionKey = "agent:main:summarized-aborted";
    const { send, release } = await holdFirstThenSend(q, sessionKey, "x-first", [
      ["x-second", "x-2"],
      ["x-third", "x-3"],
    ]);
    expect((await q.rpc.request("chat.abort", { sessionKey, runId: "x-2" })).payload).toMatchObject({ aborted: true, runIds: ["x-2"] });
    expect((await q.wait("x-2")).payload).toMatchObject({ status: "error", error: "aborted" });
    release();
    for (const runId of ["x-first-run", "x-3"]) expect((await q.wait(runId)).payload).toMatchObject({ status: "ok" });
    expect((await send("x-after", "x-4")).ok).toBe(true);
    expect((await q.wait("x-4")).payload).toMatchObject({ status: "ok" });
    expect(chatRequests(q.server).length).toBe(3);
    expect(lastUserText(chatRequests(q.server)[1]!)).toBe("x-third");
    expect(requestsWith("x-second")).toEqual([]);
  }, 40_000);

  it("is dropped outright, and withdrawn, once its summary line is pushed out by a flood of summaries", async () => {
    q.server.reset();
    const sessionKey = "agent:main:summaries-flood";
    // Twelve messages behind the held turn: eleven are summarized, one more than the summary lines kept.
    const flood = [..."abcdefghijkl"].map((c): [string, string] => [`flood-${c}`, `fl-${c}`]);
    const { send, release } = await holdFirstThenSend(q, sessionKey, "fl-first", flood);
    expect((await q.wait("fl-a")).payload).toMatchObject({ status: "error" });
    release();
    for (const [, runId] of [["", "fl-first-run"], ...flood.slice(1)]) expect((await q.wait(runId!)).payload).toMatchObject({ status: "ok" });
    expect((await send("after the flood", "fl-after")).ok).toBe(true);
    expect((await q.wait("fl-after")).payload).toMatchObject({ status: "ok" });
    expect(chatRequests(q.server).length).toBe(3);
    expect(lastUserText(chatRequests(q.server)[1]!)).toContain('summarized: "flood-b"');
    expect(requestsWith("flood-b")).toEqual([1, 2]);
    expect(requestsWith("flood-a")).toEqual([]);
    const history = await q.rpc.request("chat.history", { sessionKey });
    expect(JSON.stringify(history.payload)).not.toContain("flood-a");
  }, 60_000);
});
