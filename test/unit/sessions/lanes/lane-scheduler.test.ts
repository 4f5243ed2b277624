import { describe, expect, it } from "vitest";
import { LaneAbortedError, LaneDrainingError, LaneScheduler } from "../../../../src/sessions/lanes/index.js";

/** Seeded PRNG (mulberry32) so the "random" delays are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise the test settles by hand, to hold a task "running" as long as needed. */
function gate() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("LaneScheduler: ordering and the global cap", () => {
  // A tight cap keeps keys waiting in line; a loose one leaves the per-key rule as the only guard.
  it.each([8, 1_000])("runs each key's tasks in enqueue order, never overlapping, under cap %i (100 keys × 10 tasks)", async (maxConcurrent) => {
    const random = seeded(42);
    const lanes = new LaneScheduler({ maxConcurrent });
    const started = new Map<string, number[]>();
    const runningPerKey = new Map<string, number>();
    let running = 0;
    let maxRunning = 0;
    let overlaps = 0;
    const all: Promise<string>[] = [];

    // Interleave keys at random (keeping each key's own order) so both "same key twice in a row"
    // and "many keys between two tasks of one key" happen.
    const nextTask = new Array<number>(100).fill(0);
    const open = Array.from({ length: 100 }, (_, k) => k);
    while (open.length > 0) {
      {
        const pick = Math.floor(random() * open.length);
        const k = open[pick]!;
        const task = nextTask[k]!++;
        if (nextTask[k] === 10) open.splice(pick, 1);
        const key = `session:${k}`;
        const delay = Math.floor(random() * 3);
        const microtaskHops = Math.floor(random() * 4);
        all.push(
          lanes.enqueue(key, async () => {
            running += 1;
            maxRunning = Math.max(maxRunning, running);
            if ((runningPerKey.get(key) ?? 0) > 0) overlaps += 1;
            runningPerKey.set(key, (runningPerKey.get(key) ?? 0) + 1);
            started.set(key, [...(started.get(key) ?? []), task]);
            for (let i = 0; i < microtaskHops; i++) await Promise.resolve();
            if (delay > 0) await sleep(delay);
            runningPerKey.set(key, runningPerKey.get(key)! - 1);
            running -= 1;
            return `${key}#${task}`;
          }),
        );
        expect(lanes.activeCount).toBeLessThanOrEqual(maxConcurrent);
      }
    }

    const results = await Promise.all(all);
    expect(results).toHaveLength(1000);
    expect(overlaps).toBe(0);
    expect(maxRunning).toBeLessThanOrEqual(maxConcurrent);
    expect(maxRunning).toBe(Math.min(maxConcurrent, 100)); // the cap is actually used, not just respected
    for (let k = 0; k < 100; k++) expect(started.get(`session:${k}`)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lanes.activeCount).toBe(0);
  });

  it("resolves each enqueue with its own task's value", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 2 });
    const values = await Promise.all([1, 2, 3].map((n) => lanes.enqueue("k", async () => n * 10)));
    expect(values).toEqual([10, 20, 30]);
  });

  it("reports isActive and queuedCount, and forgets idle lanes", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const first = gate();
    const a = lanes.enqueue("k", () => first.promise);
    const b = lanes.enqueue("k", async () => undefined);
    expect(lanes.isActive("k")).toBe(true);
    expect(lanes.queuedCount("k")).toBe(1);
    expect(lanes.isActive("other")).toBe(false);
    expect(lanes.queuedCount("other")).toBe(0);
    first.resolve();
    await Promise.all([a, b]);
    expect(lanes.isActive("k")).toBe(false);
    expect(lanes.queuedCount("k")).toBe(0);
    expect(lanes.activeCount).toBe(0);
  });

  it("rejects a maxConcurrent that is not an integer ≥ 1", () => {
    expect(() => new LaneScheduler({ maxConcurrent: 0 })).toThrow(RangeError);
    expect(() => new LaneScheduler({ maxConcurrent: 1.5 })).toThrow(RangeError);
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    expect(() => lanes.setMaxConcurrent(-1)).toThrow(RangeError);
  });

  it("setMaxConcurrent: raising starts waiting keys at once, lowering only holds back later starts", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const gates = ["a", "b", "c"].map(() => gate());
    const done = ["a", "b", "c"].map((key, i) => lanes.enqueue(key, () => gates[i]!.promise));
    expect(lanes.activeCount).toBe(1);

    lanes.setMaxConcurrent(3);
    expect(lanes.activeCount).toBe(3);

    lanes.setMaxConcurrent(1);
    expect(lanes.activeCount).toBe(3); // running tasks are never stopped
    const late = lanes.enqueue("d", async () => "d");
    gates[0]!.resolve();
    gates[1]!.resolve();
    await Promise.all(done.slice(0, 2));
    await flush();
    expect(lanes.isActive("d")).toBe(false); // c still holds the only slot
    gates[2]!.resolve();
    await expect(late).resolves.toBe("d");
  });
});

describe("LaneScheduler: fairness", () => {
  it("gives the next slot to the key that has waited longest, not the one with the most tasks", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      await Promise.resolve();
    };
    const all = [
      ...[1, 2, 3, 4].map((n) => lanes.enqueue("chatty", task(`chatty${n}`))),
      lanes.enqueue("b", task("b1")),
      lanes.enqueue("c", task("c1")),
      lanes.enqueue("b", task("b2")),
    ];
    await Promise.all(all);
    expect(order).toEqual(["chatty1", "b1", "c1", "chatty2", "b2", "chatty3", "chatty4"]);
  });

  it("a key that becomes runnable again goes behind keys that were already waiting", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 2 });
    const order: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const hold = (name: string) => () => {
      order.push(name);
      const g = gate();
      gates.set(name, g);
      return g.promise;
    };
    const all = [lanes.enqueue("a", hold("a1")), lanes.enqueue("b", hold("b1")), lanes.enqueue("a", hold("a2")), lanes.enqueue("c", hold("c1")), lanes.enqueue("d", hold("d1"))];
    expect(order).toEqual(["a1", "b1"]);
    gates.get("a1")!.resolve();
    await flush();
    // c and d have been runnable since they were enqueued; a only became runnable now.
    expect(order).toEqual(["a1", "b1", "c1"]);
    gates.get("b1")!.resolve();
    await flush();
    expect(order).toEqual(["a1", "b1", "c1", "d1"]);
    gates.get("c1")!.resolve();
    await flush();
    expect(order).toEqual(["a1", "b1", "c1", "d1", "a2"]);
    gates.get("d1")!.resolve();
    gates.get("a2")!.resolve();
    await Promise.all(all);
  });
});

describe("LaneScheduler: abort", () => {
  it("a task aborted while queued rejects with LaneAbortedError and never runs", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const first = gate();
    const ran: string[] = [];
    const a = lanes.enqueue("k", () => first.promise);
    const controller = new AbortController();
    const b = lanes.enqueue("k", async () => void ran.push("b"), { signal: controller.signal });
    const c = lanes.enqueue("k", async () => void ran.push("c"));
    controller.abort("user typed /stop");
    expect(lanes.queuedCount("k")).toBe(1);
    const error = await b.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LaneAbortedError);
    expect((error as LaneAbortedError).key).toBe("k");
    expect((error as LaneAbortedError).cause).toBe("user typed /stop");
    first.resolve();
    await Promise.all([a, c]);
    expect(ran).toEqual(["c"]);
  });

  it("an already-aborted signal is refused up front", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    let ran = false;
    const promise = lanes.enqueue("k", async () => void (ran = true), { signal: AbortSignal.abort() });
    await expect(promise).rejects.toBeInstanceOf(LaneAbortedError);
    expect(ran).toBe(false);
    expect(lanes.isActive("k")).toBe(false);
  });

  it("aborting the last queued task of a waiting key removes the key from the line", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const first = gate();
    const a = lanes.enqueue("a", () => first.promise);
    const controller = new AbortController();
    const b = lanes.enqueue("b", async () => "b", { signal: controller.signal });
    const c = lanes.enqueue("c", async () => "c");
    controller.abort();
    await expect(b).rejects.toBeInstanceOf(LaneAbortedError);
    first.resolve();
    await expect(c).resolves.toBe("c");
    await a;
    expect(lanes.queuedCount("b")).toBe(0);
  });

  it("abortActive aborts the running task's signal with the given reason; the next task still runs", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    let seenReason: unknown;
    const running = lanes.enqueue(
      "k",
      (signal) =>
        new Promise<string>((_, reject) => {
          signal.addEventListener("abort", () => {
            seenReason = signal.reason;
            reject(new Error("stopped"));
          });
        }),
    );
    const next = lanes.enqueue("k", async (signal) => signal.aborted);
    expect(lanes.abortActive("k", "interrupt")).toBe(true);
    await expect(running).rejects.toThrow("stopped");
    expect(seenReason).toBe("interrupt");
    await expect(next).resolves.toBe(false); // a fresh signal per task
    expect(lanes.abortActive("k")).toBe(false);
  });

  it("the caller's signal firing while the task runs aborts the task's signal", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const controller = new AbortController();
    const promise = lanes.enqueue("k", (signal) => new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason))), {
      signal: controller.signal,
    });
    await flush();
    controller.abort("client went away");
    await expect(promise).resolves.toBe("client went away");
  });
});

describe("LaneScheduler: errors and waits", () => {
  it("a failing or throwing task only fails its own promise; the lane keeps going", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const failing = lanes.enqueue("k", async () => {
      throw new Error("model exploded");
    });
    const throwing = lanes.enqueue("k", (() => {
      throw new Error("sync throw");
    }) as () => Promise<void>);
    const fine = lanes.enqueue("k", async () => "still runs");
    await expect(failing).rejects.toThrow("model exploded");
    await expect(throwing).rejects.toThrow("sync throw");
    await expect(fine).resolves.toBe("still runs");
    expect(lanes.activeCount).toBe(0);
  });

  it("calls onWait with the wait once it reaches warnAfterMs, and not for short waits", async () => {
    let now = 0;
    const lanes = new LaneScheduler({ maxConcurrent: 1, now: () => now });
    const first = gate();
    const waits: Array<[string, number]> = [];
    const a = lanes.enqueue("k", () => first.promise, { onWait: (ms) => waits.push(["a", ms]) });
    const b = lanes.enqueue("k", async () => undefined, { onWait: (ms) => waits.push(["b", ms]) });
    const c = lanes.enqueue("j", async () => undefined, { onWait: (ms) => waits.push(["c", ms]), warnAfterMs: 5_000 });
    const d = lanes.enqueue(
      "i",
      async () => {
        throw new Error("d failed");
      },
      {
        onWait: () => {
          throw new Error("observer bug");
        },
      },
    );
    now = 2_500;
    first.resolve();
    await Promise.all([a, b, c]);
    await expect(d).rejects.toThrow("d failed"); // the observer's throw did not replace the task
    expect(waits).toEqual([["b", 2_500]]);
  });
});

describe("LaneScheduler: drain", () => {
  it("refuses new tasks, lets accepted ones finish, then resolves", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const first = gate();
    const finished: string[] = [];
    const a = lanes.enqueue("a", async () => {
      await first.promise;
      finished.push("a");
    });
    const b = lanes.enqueue("b", async () => void finished.push("b"));

    let drained = false;
    const draining = lanes.drain().then(() => (drained = true));
    await expect(lanes.enqueue("c", async () => undefined)).rejects.toBeInstanceOf(LaneDrainingError);
    await flush();
    expect(drained).toBe(false);

    first.resolve();
    await draining;
    expect(finished).toEqual(["a", "b"]);
    await Promise.all([a, b]);
    expect(lanes.activeCount).toBe(0);
  });

  it("resolves at once when idle, and every call returns the same promise", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 2 });
    const first = lanes.drain();
    expect(lanes.drain()).toBe(first);
    await expect(first).resolves.toBeUndefined();
  });

  it("a queued task aborted during the drain no longer holds it up", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1 });
    const hold = gate();
    const running = lanes.enqueue("x", () => hold.promise);
    const controller = new AbortController();
    const queued = lanes.enqueue("x", async () => "ran", { signal: controller.signal });
    const draining = lanes.drain();
    controller.abort();
    await expect(queued).rejects.toBeInstanceOf(LaneAbortedError);
    hold.resolve();
    await running;
    await expect(draining).resolves.toBeUndefined();
  });
});
