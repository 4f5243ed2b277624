import { describe, expect, it } from "vitest";
import { LaneScheduler } from "../../../../src/sessions/lanes/index.js";

function gate() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => (resolve = res));
  return { promise, resolve };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const isChild = (key: string) => key.startsWith("child:");

describe("LaneScheduler pools", () => {
  it("runs pooled keys under the pool's cap and the rest under the global cap, independently", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 2, pools: [{ name: "subagent", maxConcurrent: 3, matches: isChild }] });
    const hold = gate();
    const running = { child: 0, main: 0 };
    const peak = { child: 0, main: 0 };
    const task = (kind: "child" | "main") => async () => {
      running[kind] += 1;
      peak[kind] = Math.max(peak[kind], running[kind]);
      await hold.promise;
      running[kind] -= 1;
    };
    const all = [
      ...Array.from({ length: 10 }, (_, i) => lanes.enqueue(`child:${i}`, task("child"))),
      ...Array.from({ length: 5 }, (_, i) => lanes.enqueue(`main:${i}`, task("main"))),
    ];
    await flush();
    // Ten waiting children do not hold back the conversations, nor the reverse.
    expect(running).toEqual({ child: 3, main: 2 });
    hold.resolve();
    await Promise.all(all);
    expect(peak).toEqual({ child: 3, main: 2 });
    expect(lanes.activeCount).toBe(0);
  });

  it("setPoolMaxConcurrent raises the pool's cap at once and refuses unknown pools", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1, pools: [{ name: "subagent", maxConcurrent: 1, matches: isChild }] });
    const hold = gate();
    let running = 0;
    const all = Array.from({ length: 4 }, (_, i) =>
      lanes.enqueue(`child:${i}`, async () => {
        running += 1;
        await hold.promise;
      }),
    );
    await flush();
    expect(running).toBe(1);
    lanes.setPoolMaxConcurrent("subagent", 4);
    await flush();
    expect(running).toBe(4);
    expect(() => lanes.setPoolMaxConcurrent("nope", 2)).toThrow(/unknown lane pool "nope"/);
    hold.resolve();
    await Promise.all(all);
  });

  it("drain waits for pooled tasks too", async () => {
    const lanes = new LaneScheduler({ maxConcurrent: 1, pools: [{ name: "subagent", maxConcurrent: 1, matches: isChild }] });
    const hold = gate();
    let finished = false;
    void lanes.enqueue("child:a", async () => {
      await hold.promise;
      finished = true;
    });
    const drained = lanes.drain();
    setTimeout(() => hold.resolve(), 20);
    await drained;
    expect(finished).toBe(true);
  });
});
