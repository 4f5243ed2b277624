import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { holdAnswerTo, startQueueGateway, type QueueGateway } from "../helpers/queue-gateway.js";

/**
 * A graceful stop (SIGTERM) aborts what runs; a turn that had not started by then never runs.
 * Its runs still end with terminal events and an `agent.wait` outcome that say why: the gateway
 * shut down before the message was answered (nothing re-runs it after the restart), so the
 * sender knows to send it again. A running turn cut by the stop ends `aborted` with OpenClaw's
 * `stopReason: "restart"` (a user's stop is `rpc`) and says the same.
 */
let q: QueueGateway;
beforeAll(async () => {
  q = await startQueueGateway("queue-shutdown-token", { mode: "followup" }, { maxConcurrent: 1 });
});
afterAll(async () => {
  await q?.close();
});

/** The text of each message `chat.history` returns for the session. */
async function historyTexts(sessionKey: string): Promise<string[]> {
  const history = await q.rpc.request("chat.history", { sessionKey });
  return (history.payload as { messages: { content: { text?: string }[] }[] }).messages.map((m) => m.content.map((b) => b.text ?? "").join(""));
}

const send = (sessionKey: string, message: string, key: string) => q.rpc.request("chat.send", { sessionKey, message, idempotencyKey: key });

describe("turns that have not started when the gateway stops", () => {
  it("a queued followup and another session's turn held for the only slot end with an error that says the message was not answered; the running turn ends aborted by a restart", async () => {
    const first = holdAnswerTo(q.server, "d-first");
    expect((await send("agent:main:drain", "d-first", "d-1")).payload).toMatchObject({ status: "started" });
    await first.arrived;
    expect((await send("agent:main:drain", "d-second", "d-2")).payload).toMatchObject({ status: "started", queued: "queued" });
    expect((await send("agent:main:drain-other", "o-first", "o-1")).payload).toMatchObject({ status: "started" });
    const waits = ["d-2", "o-1"].map((runId) => q.wait(runId));
    const runningWait = q.wait("d-1");
    const ends = ["d-2", "o-1"].map((runId) => q.chatEnd(runId));
    const exited = q.gw.stop("SIGTERM");
    for (const [i, runId] of ["d-2", "o-1"].entries()) {
      const notAnswered = expect.stringMatching(/^the gateway shut down before this message was answered/);
      expect((await waits[i]!).payload).toMatchObject({ runId, status: "error", error: notAnswered });
      expect(await ends[i]!).toMatchObject({ runId, state: "error", errorMessage: notAnswered });
    }
    const cut = expect.stringMatching(/^the gateway shut down while this message was being answered; send it again/);
    expect(await q.chatEnd("d-1")).toMatchObject({ state: "aborted", stopReason: "restart", errorMessage: cut });
    expect((await runningWait).payload).toMatchObject({ runId: "d-1", status: "error", error: cut });
    const lifecycleEnd = q.rpc.sock.frames.find((f) => f.event === "agent" && f.payload?.runId === "d-1" && f.payload.stream === "lifecycle" && f.payload.data?.phase === "end");
    expect(lifecycleEnd?.payload.data).toMatchObject({ aborted: true, stopReason: "restart" });
    await exited;
    first.release();
    for (const text of ["d-second", "o-first"]) expect(chatRequests(q.server).filter((r) => lastUserText(r) === text)).toEqual([]);
    // Nothing runs them after the restart, and their messages are withdrawn from the conversation.
    await q.restart();
    expect((await send("agent:main:drain", "d-second", "d-2")).payload).toMatchObject({ runId: "d-2", status: "error" });
    // The cut run's key answers as a run the restart interrupted, as after a crash (not as a user's stop).
    expect((await send("agent:main:drain", "d-first", "d-1")).payload).toMatchObject({ runId: "d-1", status: "interrupted" });
    const history = await historyTexts("agent:main:drain");
    expect(history).toContain("d-first");
    expect(history).not.toContain("d-second");
    expect(await historyTexts("agent:main:drain-other")).not.toContain("o-first");
  }, 60_000);
});
