/**
 * TurnQueue with the real lane scheduler, run registry and run endings: which turn of a session
 * runs next, and that every accepted run gets one.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { TurnSettings } from "../../../src/agents/conversation-port.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { RunEndings } from "../../../src/conversations/run-endings.js";
import { RunRegistry } from "../../../src/conversations/run-registry.js";
import { TurnQueue, type Turn } from "../../../src/conversations/turn-queue.js";
import type { IdempotencyLedger } from "../../../src/sessions/idempotency/index.js";
import { LaneScheduler, MAX_SUMMARY_LINES } from "../../../src/sessions/lanes/index.js";

const KEY = "agent:main:main";

function harness(queueConfig: Record<string, unknown>) {
  const runs = new RunRegistry();
  const lanes = new LaneScheduler({ maxConcurrent: 4 });
  const logger = pino({ level: "silent" });
  const sink = { agent: () => {}, chat: () => {} };
  const ledger = { complete: () => undefined } as unknown as IdempotencyLedger;
  const endings = new RunEndings({ runs, ledger, sink, logger, forgetListener: (id) => queue.forgetListener(id) });
  const config = { messages: { queue: queueConfig } } as unknown as OpenClawConfig;
  /** The members of every turn that ran, in order, and the turn settings each ran with. */
  const ran: string[][] = [];
  const settings: (TurnSettings | undefined)[] = [];
  const held = new Map<string, () => void>();
  const queue: TurnQueue = new TurnQueue({
    lanes,
    runs,
    endings,
    sink,
    config: () => config,
    logger,
    run: async (turn) => {
      ran.push([...turn.members]);
      settings.push(turn.settings);
      const hold = held.get(turn.members[0]!);
      if (hold) await new Promise<void>((resolve) => held.set(turn.members[0]!, resolve));
      endings.finish(turn.members, "ok");
    },
  });
  const turn = (runId: string): Turn => ({ sessionKey: KEY, agentId: "main", members: [runId], text: runId, onEvents: [], senderIsOwner: true });
  return { runs, queue, ran, settings, held, turn };
}

/** Resolves with the run's status, or "still waiting" once `ms` passed. */
function statusWithin(runs: RunRegistry, runId: string, ms: number): Promise<string> {
  return Promise.race([runs.get(runId)!.done.then((r) => r.status), new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), ms).unref())]);
}

/** Starts a turn for "first" that holds until released, then offers `waiting` to the busy session. */
async function holdFirstThenOffer(h: ReturnType<typeof harness>, waiting: string[]): Promise<void> {
  h.held.set("first", () => {});
  h.runs.create("first", KEY, "main");
  h.queue.start(h.turn("first"));
  await new Promise((resolve) => setImmediate(resolve));
  for (const id of waiting) {
    h.runs.create(id, KEY, "main");
    h.queue.offer(KEY, undefined, { id, text: id, receivedAt: Date.now() });
  }
}

describe("TurnQueue", () => {
  it("runs a runtime message that arrived while a collected batch waited for quiet, then the batch", async () => {
    const { runs, queue, ran, held, turn } = harness({ mode: "collect", debounceMs: 100 });
    held.set("first", () => {});
    runs.create("first", KEY, "main");
    queue.start(turn("first"));
    await new Promise((resolve) => setImmediate(resolve));
    runs.create("second", KEY, "main");
    expect(queue.offer(KEY, undefined, { id: "second", text: "second", receivedAt: Date.now() }).action).toBe("queued");
    held.get("first")!();
    await runs.get("first")!.done;
    while (queue.isActive(KEY)) await new Promise((resolve) => setImmediate(resolve));
    // The turn ended inside the batch's quiet window; a runtime message arrives meanwhile.
    expect(queue.busy(KEY)).toBe(true);
    runs.create("announce", KEY, "main");
    queue.addInternal(KEY, { runId: "announce", agentId: "main", text: "announce", mergeable: true, senderIsOwner: true });
    expect(await statusWithin(runs, "announce", 3_000)).toBe("ok");
    expect(await statusWithin(runs, "second", 3_000)).toBe("ok");
    expect(ran).toEqual([["first"], ["announce"], ["second"]]);
  });

  it("withdrawing the last waiting message also ends the runs whose summary it would have carried", async () => {
    const h = harness({ mode: "followup", cap: 1, drop: "summarize" });
    const { runs, queue, held } = h;
    await holdFirstThenOffer(h, ["second", "third"]);
    // "second" was summarized to make room for "third"; only "third" carries its summary.
    expect(queue.withdraw(KEY, "third")).toEqual(["third", "second"]);
    expect(queue.busy(KEY)).toBe(true);
    held.get("first")!();
    await runs.get("first")!.done;
    while (queue.isActive(KEY)) await new Promise((resolve) => setImmediate(resolve));
    expect(queue.busy(KEY)).toBe(false);
  });

  it("steer: a message whose summary line a flood pushed out ends dropped at once instead of waiting forever", async () => {
    const h = harness({ mode: "steer", cap: 1, drop: "summarize" });
    const { runs, queue, held } = h;
    const flood = Array.from({ length: MAX_SUMMARY_LINES + 2 }, (_, i) => `s${i + 1}`);
    // Each newcomer summarizes the one steered before it: s1 … s11 are summarized, s1's line is pushed out.
    await holdFirstThenOffer(h, flood);
    expect(await statusWithin(runs, "s1", 3_000)).toBe("error");
    const running = h.turn("first");
    queue.takeSteering(running);
    // The summary that reached the turn carries s2 … s11: they join it, with s12.
    expect(running.members).toEqual(["first", ...flood.slice(1)]);
    held.get("first")!();
  });

  it("a summarized message is answered by the turn that carries its summary, not by a runtime turn before it", async () => {
    const h = harness({ mode: "followup", cap: 1, drop: "summarize" });
    const { runs, queue, ran, held } = h;
    await holdFirstThenOffer(h, ["second", "third"]);
    runs.create("announce", KEY, "main");
    queue.addInternal(KEY, { runId: "announce", agentId: "main", text: "announce", mergeable: true, senderIsOwner: true });
    held.get("first")!();
    expect(await statusWithin(runs, "third", 3_000)).toBe("ok");
    expect(ran).toEqual([["first"], ["announce"], ["second", "third"]]);
  });

  it("runtime messages merge only with equal turn settings; each turn runs with its messages' settings", async () => {
    const h = harness({});
    const { runs, queue, ran, held } = h;
    await holdFirstThenOffer(h, []);
    const model = { modelOverride: "fake/other" };
    const internal = (runId: string, settings?: TurnSettings) => {
      runs.create(runId, KEY, "main");
      queue.addInternal(KEY, { runId, agentId: "main", text: runId, mergeable: true, senderIsOwner: true, ...(settings ? { settings } : {}) });
    };
    internal("plain-1");
    internal("beat-1", model);
    internal("beat-2", { modelOverride: "fake/other" });
    internal("plain-2");
    held.get("first")!();
    expect(await statusWithin(runs, "plain-2", 3_000)).toBe("ok");
    expect(ran).toEqual([["first"], ["plain-1"], ["beat-1", "beat-2"], ["plain-2"]]);
    expect(h.settings).toEqual([undefined, undefined, model, undefined]);
  });

  it("a user message is not steered into a runtime turn that runs with its own settings: it waits for its own turn", async () => {
    const h = harness({ mode: "steer" });
    const { runs, queue, ran, held } = h;
    const beat: Turn = { ...h.turn("beat"), runtime: true, settings: { modelOverride: "fake/other", lightContext: true } };
    held.set("beat", () => {});
    runs.create("beat", KEY, "main");
    queue.start(beat);
    await new Promise((resolve) => setImmediate(resolve));
    runs.create("user", KEY, "main");
    expect(queue.offer(KEY, undefined, { id: "user", text: "user", receivedAt: Date.now() }).action).toBe("queued");
    expect(queue.steeringPending(KEY)).toBe(false);
    held.get("beat")!();
    expect(await statusWithin(runs, "user", 3_000)).toBe("ok");
    expect(ran).toEqual([["beat"], ["user"]]);
    expect(h.settings).toEqual([beat.settings, undefined]);
  });
});
