import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { holdAnswersTo, replyText, startQueueGateway, type HeldAnswer, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * A held turn: taken from the session's queue (or started by a message to an idle session) and
 * waiting on its lane for a slot under `agents.defaults.maxConcurrent`, not yet running. With one
 * slot, another session's turn keeps it waiting for as long as that turn's answer is held.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-held-turn-token", { debounceMs: 0 }, { maxConcurrent: 1 });
});
afterAll(async () => {
  await q?.close();
});
/** Answers a test held, let go after it (also when it failed half-way, so the slot frees for the next). */
const held: HeldAnswer[] = [];
afterEach(() => {
  for (const answer of held.splice(0)) answer.release();
});

/** The model holds its answers to `texts` (see `holdAnswersTo`) until each is released. */
function hold(...texts: string[]): HeldAnswer[] {
  const answers = holdAnswersTo(q.server, texts);
  held.push(...answers);
  return answers;
}

const send = (sessionKey: string, message: string, key: string, queueMode?: string) =>
  q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key, ...(queueMode ? { queueMode } : {}) });

/** The model requests whose newest user message was `text`. */
const asked = (text: string) => chatRequests(q.server).filter((r) => lastUserText(r) === text);

describe("a turn held for a lane slot", () => {
  it("chat.abort with one member's runId takes only that message out of the merged turn; the rest still run", async () => {
    q.server.reset();
    const merged = "agent:main:held-merged";
    const other = "agent:main:held-merged-other";
    const [first, blocker] = hold("h-first", "o-first");
    expect((await send(merged, "h-first", "h-1")).payload).toMatchObject({ status: "started" });
    await first!.arrived;
    expect((await send(merged, "h-second", "h-2", "collect")).ok).toBe(true);
    expect((await send(merged, "h-third", "h-3", "collect")).ok).toBe(true);
    // Waits for the only slot, so it gets it before the batch taken from the queue when h-first ends.
    expect((await send(other, "o-first", "o-1")).payload).toMatchObject({ status: "started" });
    first!.release();
    await blocker!.arrived;
    const aborted = await q.rpc.request("chat.abort", { sessionKey: merged, runId: "h-2" });
    expect(aborted.payload).toMatchObject({ aborted: true, runIds: ["h-2"] });
    await expectAbortedAtOnce("h-2");
    blocker!.release();
    expect((await q.wait("h-3")).payload).toMatchObject({ runId: "h-3", status: "ok" });
    expect(replyText(await q.chatEnd("h-3"))).toBe("A:h-third");
    expect(asked("h-third").length).toBe(1);
    for (const request of chatRequests(q.server)) expect(lastUserText(request)).not.toContain("h-second");
  }, 40_000);

  it("chat.abort with one runId of a merged runtime turn (system events) takes only that event out; the others still run", async () => {
    q.server.reset();
    const session = "agent:main:held-events";
    // No heartbeat: a `wake` is a runtime message for the session, and those waiting together merge.
    expect((await q.rpc.request("set-heartbeats", { enabled: false })).ok).toBe(true);
    const [first, blocker] = hold("e-first", "eo-first");
    expect((await send(session, "e-first", "e-1")).payload).toMatchObject({ status: "started" });
    await first!.arrived;
    const wake = (text: string) => q.rpc.request("wake", { mode: "now", text, sessionKey: session });
    const [eventA, eventB] = [(await wake("event-a")).payload.runId as string, (await wake("event-b")).payload.runId as string];
    expect((await send(`${session}-other`, "eo-first", "eo-1")).payload).toMatchObject({ status: "started" });
    first!.release();
    await blocker!.arrived;
    expect((await q.rpc.request("chat.abort", { sessionKey: session, runId: eventA })).payload).toMatchObject({ aborted: true, runIds: [eventA] });
    await expectAbortedAtOnce(eventA);
    blocker!.release();
    expect((await q.wait(eventB)).payload).toMatchObject({ runId: eventB, status: "ok" });
    const answered = chatRequests(q.server).filter((r) => lastUserText(r)?.includes("event-b"));
    expect(answered.map(lastUserText)).toEqual(["[System event] event-b"]);
    for (const request of chatRequests(q.server)) expect(lastUserText(request)).not.toContain("event-a");
  }, 40_000);

  it("chat.abort of a held turn's only message ends its run at once, and the model is never asked it", async () => {
    const lone = "agent:main:held-lone";
    const blocker = await heldBehindOtherSession(lone, "l-first", "l-1");
    expect((await q.rpc.request("chat.abort", { sessionKey: lone, runId: "l-1" })).payload).toMatchObject({ aborted: true, runIds: ["l-1"] });
    await expectAbortedAtOnce("l-1");
    blocker.release();
    // The session is free again: its next message runs.
    expect((await send(lone, "l-second", "l-2")).payload).toMatchObject({ status: "started" });
    expect((await q.wait("l-2")).payload).toMatchObject({ status: "ok" });
    expect(asked("l-first").length).toBe(0);
  }, 40_000);

  it("interrupt: a newer message aborts the session's turn that waits for a slot, as it aborts a running one, and runs next", async () => {
    const session = "agent:main:held-interrupt";
    const blocker = await heldBehindOtherSession(session, "i-first", "i-1");
    expect((await send(session, "i-second", "i-2", "interrupt")).payload).toMatchObject({ status: "started", queued: "interrupt" });
    await expectAbortedAtOnce("i-1");
    blocker.release();
    expect((await q.wait("i-2")).payload).toMatchObject({ runId: "i-2", status: "ok" });
    expect(replyText(await q.chatEnd("i-2"))).toBe("A:i-second");
    expect(asked("i-first").length).toBe(0);
  }, 40_000);
});

/**
 * Another session's turn takes the only slot (its answer held), then `text` (run `runId`) goes to
 * `sessionKey`, whose turn waits for that slot. Returns the other turn's held answer.
 */
async function heldBehindOtherSession(sessionKey: string, text: string, runId: string): Promise<HeldAnswer> {
  q.server.reset();
  const [blocker] = hold(`${text}-blocker`);
  expect((await send(`${sessionKey}-other`, `${text}-blocker`, `${runId}-blocker`)).payload).toMatchObject({ status: "started" });
  await blocker!.arrived;
  expect((await send(sessionKey, text, runId)).payload).toMatchObject({ status: "started" });
  return blocker!;
}

/** The run ended aborted, with its terminal chat event; called while the slot is still taken, so at once. */
async function expectAbortedAtOnce(runId: string): Promise<void> {
  expect((await q.wait(runId)).payload).toMatchObject({ runId, status: "error", error: "aborted" });
  expect(await q.chatEnd(runId)).toMatchObject({ state: "aborted" });
}
