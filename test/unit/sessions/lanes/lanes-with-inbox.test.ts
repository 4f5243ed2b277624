/**
 * The caller recipe from `src/sessions/lanes/index.ts`, wired to a fake agent, to check that the
 * scheduler and the inbox together answer every message exactly once and in order.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSessionInbox, LaneScheduler, type InboundMessage, type InboxNotice, type QueueMode } from "../../../../src/sessions/lanes/index.js";

interface Run {
  prompt: string;
  steered: string[];
  aborted: boolean;
}

function harness(mode: QueueMode, options: { debounceMs?: number; modelSteps?: number; stepMs?: number } = {}) {
  const key = "agent:main:main";
  const scheduler = new LaneScheduler({ maxConcurrent: 4 });
  const notices: InboxNotice[] = [];
  const inbox = createSessionInbox({ mode, debounceMs: options.debounceMs ?? 0, notify: (n) => notices.push(n), sessionKey: key });
  const runs: Run[] = [];
  const finished: Promise<unknown>[] = [];
  let seq = 0;

  /** A fake agent: `modelSteps` model calls of `stepMs` each. */
  async function runAgent(prompt: string, signal: AbortSignal): Promise<void> {
    const run: Run = { prompt, steered: [], aborted: false };
    runs.push(run);
    for (let step = 0; step < (options.modelSteps ?? 3); step++) {
      // Steering is appended before every model call after the first (a tool round-trip boundary).
      if (step > 0) run.steered.push(...inbox.takeSteering().map((m) => m.text));
      await new Promise((resolve) => setTimeout(resolve, options.stepMs ?? 10));
      if (signal.aborted) {
        run.aborted = true;
        return;
      }
    }
  }

  function startRun(text: string): void {
    finished.push(
      scheduler.enqueue(key, async (signal) => {
        try {
          await runAgent(text, signal);
        } finally {
          scheduleNext();
        }
      }),
    );
  }

  function scheduleNext(): void {
    const turn = inbox.nextTurn();
    if (turn) startRun(turn.mergedText);
    else if (inbox.pendingCount() > 0) finished.push(inbox.whenReady().then(scheduleNext));
  }

  function inbound(text: string): void {
    seq += 1;
    const message: InboundMessage = { id: `m${seq}`, text, receivedAt: seq };
    if (!scheduler.isActive(key) && scheduler.queuedCount(key) === 0 && inbox.pendingCount() === 0) {
      startRun(text);
      return;
    }
    const result = inbox.offer(message);
    if (result.action === "interrupt") scheduler.abortActive(key, "newer message");
  }

  async function settle(): Promise<void> {
    // Runs queue more runs; keep going until nothing new was started.
    for (let seen = -1; seen !== finished.length; ) {
      seen = finished.length;
      await vi.advanceTimersByTimeAsync(1_000);
      await Promise.all(finished);
    }
  }

  return { scheduler, inbox, runs, notices, inbound, settle };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("lanes + inbox", () => {
  it("steer: messages reach the active run at its next boundary; late ones become the next turn", async () => {
    vi.useFakeTimers();
    const h = harness("steer", { modelSteps: 2, stepMs: 10 });
    h.inbound("summarize my inbox");
    await vi.advanceTimersByTimeAsync(5);
    h.inbound("only unread ones"); // steered at the boundary after 10 ms
    await vi.advanceTimersByTimeAsync(10);
    h.inbound("and sort by sender"); // arrives during the last model call: no boundary left
    await h.settle();
    expect(h.runs.map((r) => ({ prompt: r.prompt, steered: r.steered }))).toEqual([
      { prompt: "summarize my inbox", steered: ["only unread ones"] },
      { prompt: "and sort by sender", steered: [] },
    ]);
    expect(h.inbox.pendingCount()).toBe(0);
  });

  it("collect: a burst during a run becomes one followup turn", async () => {
    vi.useFakeTimers();
    const h = harness("collect", { debounceMs: 50, modelSteps: 1, stepMs: 100 });
    h.inbound("first");
    await vi.advanceTimersByTimeAsync(10);
    h.inbound("second");
    h.inbound("third");
    await vi.advanceTimersByTimeAsync(80); // run still going; the batch is already quiet
    h.inbound("fourth"); // reopens the window, which is still open when the run ends
    await h.settle();
    expect(h.runs.map((r) => r.prompt)).toEqual(["first", "second\n\nthird\n\nfourth"]);
  });

  it("followup: one turn per message, in arrival order", async () => {
    vi.useFakeTimers();
    const h = harness("followup");
    for (const text of ["a", "b", "c", "d"]) h.inbound(text);
    await h.settle();
    expect(h.runs.map((r) => r.prompt)).toEqual(["a", "b", "c", "d"]);
  });

  it("interrupt: the active run is aborted and the waiting messages run next, newest last", async () => {
    vi.useFakeTimers();
    const h = harness("interrupt", { modelSteps: 5, stepMs: 10 });
    h.inbound("write a poem");
    await vi.advanceTimersByTimeAsync(15);
    h.inbound("about cats");
    h.inbound("no, dogs");
    await h.settle();
    expect(h.runs.map((r) => r.aborted)).toEqual([true, false]);
    expect(h.runs[1]?.prompt).toBe("[Earlier messages, sent before the interrupt]\nabout cats\n\n[Latest message]\nno, dogs");
    expect(h.notices).toEqual([]);
  });
});
