import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests, readIndex, waitUntil } from "../helpers/reliability.js";
import { holdFirstThenSend, startQueueGateway, type QueueGateway, type SendMessage } from "../helpers/queue-gateway.js";

/**
 * A message is written to the transcript when it arrives. One that then leaves the queue without
 * reaching the model — dropped by `messages.queue.drop`, aborted by `chat.abort { runId }` or
 * `/stop` while it waited — is marked withdrawn in the transcript: no later turn sends it to the
 * model and `chat.history` does not show it, also after a restart.
 */
let q: QueueGateway;
beforeAll(async () => {
  // One turn at a time across sessions: a second session's turn waits for a lane slot.
  q = await startQueueGateway("queue-withdrawn-token", { mode: "followup", cap: 2, drop: "old" }, { maxConcurrent: 1 });
});
afterAll(async () => {
  await q?.close();
});

/** The indexes of the model requests (since the last reset) whose body holds `text`. */
const requestsWith = (text: string): number[] => chatRequests(q.server).flatMap((r, i) => (JSON.stringify(r.body).includes(text) ? [i] : []));

/** The text of each message `chat.history` returns for the session. */
async function historyTexts(sessionKey: string): Promise<string[]> {
  const history = await q.rpc.request("chat.history", { sessionKey });
  expect(history.ok).toBe(true);
  return (history.payload as { messages: { content: { text?: string }[] }[] }).messages.map((m) => m.content.map((b) => b.text ?? "").join(""));
}

/** Sends `text` to the idle session and waits for its answer. */
async function sendAndWait(send: SendMessage, text: string, runId: string): Promise<void> {
  expect((await send(text, runId)).ok).toBe(true);
  expect((await q.wait(runId)).payload).toMatchObject({ status: "ok" });
}

const sessions = {
  dropped: "agent:main:withdrawn-dropped",
  aborted: "agent:main:withdrawn-aborted",
  stopped: "agent:main:withdrawn-stopped",
  laneWait: "agent:main:withdrawn-lane-wait",
  laneStop: "agent:main:withdrawn-lane-stop",
};

describe("a message that leaves the queue without reaching the model", () => {
  it("dropped by a full queue (drop: old) is in no later turn's history nor in chat.history", async () => {
    q.server.reset();
    // The queue holds two: d-second, the oldest waiting, is dropped for d-fourth.
    const { send, release } = await holdFirstThenSend(q, sessions.dropped, "d-first", [
      ["d-second", "d-2"],
      ["d-third", "d-3"],
      ["d-fourth", "d-4"],
    ]);
    expect((await q.wait("d-2")).payload).toMatchObject({ status: "error" });
    release();
    for (const runId of ["d-first-run", "d-3", "d-4"]) expect((await q.wait(runId)).payload).toMatchObject({ status: "ok" });
    await sendAndWait(send, "d-after", "d-5");
    expect(chatRequests(q.server).length).toBe(4);
    expect(requestsWith("d-third")).not.toEqual([]);
    expect(requestsWith("d-second")).toEqual([]);
    expect(await historyTexts(sessions.dropped)).not.toContain("d-second");
  }, 40_000);

  it("aborted by chat.abort while queued is in no later turn's history nor in chat.history", async () => {
    q.server.reset();
    const { send, release } = await holdFirstThenSend(q, sessions.aborted, "a-first", [
      ["a-second", "a-2"],
      ["a-third", "a-3"],
    ]);
    expect((await q.rpc.request("chat.abort", { sessionKey: sessions.aborted, runId: "a-2" })).payload).toMatchObject({ aborted: true, runIds: ["a-2"] });
    release();
    for (const runId of ["a-first-run", "a-3"]) expect((await q.wait(runId)).payload).toMatchObject({ status: "ok" });
    await sendAndWait(send, "a-after", "a-4");
    expect(requestsWith("a-third")).not.toEqual([]);
    expect(requestsWith("a-second")).toEqual([]);
    expect(await historyTexts(sessions.aborted)).not.toContain("a-second");
  }, 40_000);

  it("ended by /stop while queued is in no later turn's history nor in chat.history", async () => {
    q.server.reset();
    const { send, release } = await holdFirstThenSend(q, sessions.stopped, "st-first", [
      ["st-second", "st-2"],
      ["/stop", "st-stop"],
    ]);
    expect((await q.wait("st-2")).payload).toMatchObject({ status: "error", error: "aborted" });
    release();
    await q.wait("st-first-run");
    await sendAndWait(send, "st-after", "st-3");
    expect(requestsWith("st-after")).not.toEqual([]);
    expect(requestsWith("st-second")).toEqual([]);
    expect(await historyTexts(sessions.stopped)).not.toContain("st-second");
  }, 40_000);

  // Another session's held turn takes the only slot (maxConcurrent 1): the session's turn waits for it.
  const laneCases = [
    {
      how: "aborted by chat.abort with its runId",
      sessionKey: sessions.laneWait,
      prefix: "l",
      end: () => q.rpc.request("chat.abort", { sessionKey: sessions.laneWait, runId: "l-2" }),
    },
    {
      how: "ended by /stop",
      sessionKey: sessions.laneStop,
      prefix: "ls",
      end: () => q.rpc.request("chat.send", { sessionKey: sessions.laneStop, message: "/stop", idempotencyKey: "ls-stop" }),
    },
  ];
  for (const { how, sessionKey, prefix, end } of laneCases) {
    it(`${how} while its turn waits for a lane slot is in no later turn's history nor in chat.history`, async () => {
      q.server.reset();
      const { release } = await holdFirstThenSend(q, "agent:main:withdrawn-lane-holder", `${prefix}-first`, []);
      const send = (message: string, key: string) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });
      expect((await send(`${prefix}-waiting`, `${prefix}-2`)).payload).toMatchObject({ status: "started" });
      expect((await end()).ok).toBe(true);
      // Ended at once: the slot is still taken.
      expect((await q.wait(`${prefix}-2`)).payload).toMatchObject({ status: "error", error: "aborted" });
      release();
      await sendAndWait(send, `${prefix}-after`, `${prefix}-3`);
      expect(requestsWith(`${prefix}-after`)).not.toEqual([]);
      expect(requestsWith(`${prefix}-waiting`)).toEqual([]);
      expect(await historyTexts(sessionKey)).not.toContain(`${prefix}-waiting`);
    }, 40_000);
  }

  it("stays out of the model's history and chat.history after a restart", async () => {
    q.server.reset();
    await q.restart();
    const withdrawn = {
      [sessions.dropped]: "d-second",
      [sessions.aborted]: "a-second",
      [sessions.stopped]: "st-second",
      [sessions.laneWait]: "l-waiting",
      [sessions.laneStop]: "ls-waiting",
    };
    for (const [sessionKey, text] of Object.entries(withdrawn)) {
      await sendAndWait((message, key) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key }), "after-restart", `${sessionKey}:after-restart`);
      expect(await historyTexts(sessionKey)).not.toContain(text);
    }
    expect(chatRequests(q.server).length).toBe(5);
    // The answered messages of those sessions are still there; only the withdrawn ones are gone.
    expect(requestsWith("d-third")).not.toEqual([]);
    for (const text of Object.values(withdrawn)) expect(requestsWith(text)).toEqual([]);
  }, 60_000);

  it("is not counted in its session's messageCount (the session's entry and sessions.json)", async () => {
    for (const sessionKey of Object.values(sessions)) {
      const held = (await historyTexts(sessionKey)).length;
      const described = await q.rpc.request("sessions.describe", { key: sessionKey });
      expect(described.payload.session).toMatchObject({ messageCount: held, entry: { messageCount: held } });
      await waitUntil(() => readIndex(q.gw.stateDir)[sessionKey]?.messageCount === held, 10_000, `${sessionKey} counts ${held} messages in sessions.json`);
    }
  }, 30_000);
});
