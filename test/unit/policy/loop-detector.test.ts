import { describe, expect, it } from "vitest";
import { createLoopDetector, resolveLoopDetectorOptions, type LoopDetectorOptions } from "../../../src/agents/loop-detection/index.js";
import type { AfterToolCallOutcome, ToolCallBlock, ToolResult } from "../../../src/agents/types.js";

let nextId = 0;
const call = (name: string, args: Record<string, unknown> = {}): ToolCallBlock => ({ type: "toolCall", id: `c${(nextId += 1)}`, name, arguments: args });
const text = (t: string, isError = false): ToolResult => ({ content: [{ type: "text", text: t }], ...(isError ? { isError } : {}) });

/** Feed calls to one detector; returns each outcome. */
function run(steps: [ToolCallBlock, ToolResult][], options?: LoopDetectorOptions): AfterToolCallOutcome[] {
  const detector = createLoopDetector(options);
  return steps.map(([c, r]) => detector.afterToolCall!(c, r) as AfterToolCallOutcome);
}

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
const summary = (outcomes: AfterToolCallOutcome[]) => outcomes.map((o) => (o.stop ? "stop" : o.reminder ? "remind" : "-"));
// A call that never repeats, to separate other calls without forming a loop of its own.
const filler = (i: number): [ToolCallBlock, ToolResult] => [call("web_search", { query: `q${i}` }), text(`results ${i}`)];

describe("options", () => {
  it("defaults: repeat 3, read 5; hard caps at twice the threshold; polls 10/20", () => {
    expect(resolveLoopDetectorOptions()).toEqual({ repeatThreshold: 3, readThreshold: 5, repeatHardCap: 6, readHardCap: 10, pollThreshold: 10, pollHardCap: 20 });
  });

  it("hard caps follow custom thresholds and always leave room for a reminder first", () => {
    expect(resolveLoopDetectorOptions({ repeatThreshold: 4 }).repeatHardCap).toBe(8);
    expect(resolveLoopDetectorOptions({ repeatThreshold: 4, repeatHardCap: 2 }).repeatHardCap).toBe(5);
    expect(resolveLoopDetectorOptions({ readThreshold: 5, readHardCap: 5 }).readHardCap).toBe(7);
    expect(resolveLoopDetectorOptions({ repeatThreshold: 0, readThreshold: Number.NaN })).toMatchObject({ repeatThreshold: 3, readThreshold: 5 });
  });
});

describe("repeated call", () => {
  const same = (): [ToolCallBlock, ToolResult] => [call("exec", { command: "ls", workdir: "." }), text("a.txt")];

  it("reminds from the 3rd identical call and stops at the 6th", () => {
    const outcomes = run(times(6, same));
    expect(summary(outcomes)).toEqual(["-", "-", "remind", "remind", "remind", "stop"]);
    expect(outcomes[2]?.reminder).toContain("`exec` with the same arguments 3 times in a row");
    expect(outcomes[5]?.stop).toContain("`exec` was called 6 times in a row");
  });

  it("argument key order does not make a different call", () => {
    const a = call("exec", { command: "ls", workdir: "." });
    const b = call("exec", { workdir: ".", command: "ls" });
    expect(
      summary(
        run([
          [a, text("x")],
          [b, text("x")],
          [a, text("x")],
        ]),
      ),
    ).toEqual(["-", "-", "remind"]);
  });

  it("nested argument key order is ignored too; tool name case as well", () => {
    const a = call("read", { path: "a", opts: { x: 1, y: [1, { b: 2, a: 1 }] } });
    const b = call("Read", { opts: { y: [1, { a: 1, b: 2 }], x: 1 }, path: "a" });
    expect(
      summary(
        run([
          [a, text("x")],
          [b, text("x")],
          [a, text("x")],
        ]),
      ),
    ).toEqual(["-", "-", "remind"]);
  });

  it("different arguments break the streak", () => {
    const outcomes = run([same(), same(), [call("exec", { command: "ls -la", workdir: "." }), text("a.txt")], same(), same()]);
    expect(summary(outcomes)).toEqual(["-", "-", "-", "-", "-"]);
  });

  it("a different result breaks the streak: re-running after a change is progress", () => {
    const test = (out: string): [ToolCallBlock, ToolResult] => [call("exec", { command: "npm test" }), text(out)];
    expect(summary(run([test("1 failing"), test("1 failing"), test("0 failing"), test("0 failing")]))).toEqual(["-", "-", "-", "-"]);
  });

  it("volatile fields in JSON results (duration, pid) do not count as a change", () => {
    const outcomes = run(times(3, (i) => [call("exec", { command: "make" }), text(JSON.stringify({ status: "failed", exitCode: 2, durationMs: 100 + i, pid: 4000 + i }))]));
    expect(summary(outcomes)).toEqual(["-", "-", "remind"]);
  });

  it("elapsed times, pids and timestamps in text do not count as a change", () => {
    const outcomes = run(times(3, (i) => [call("exec", { command: "make" }), text(`make: *** [all] Error 2\nat 2026-11-29T19:3${i}:05Z\n\n[exit code 2 · ${i + 0.3} s]`, true)]));
    expect(summary(outcomes)).toEqual(["-", "-", "remind"]);
  });

  it("identical errors count (the classic loop)", () => {
    const outcomes = run(times(3, () => [call("nope", {}), text('{"error":"UNKNOWN_TOOL"}', true)]));
    expect(summary(outcomes)).toEqual(["-", "-", "remind"]);
  });

  it("custom thresholds", () => {
    expect(summary(run(times(4, same), { repeatThreshold: 2 }))).toEqual(["-", "remind", "remind", "stop"]);
  });

  it("passes the result through untouched", () => {
    const result = text("a.txt");
    const outcome = run([[call("exec", { command: "ls" }), result]])[0];
    expect(outcome?.result).toBe(result);
  });

  it("each detector has its own state (one per run)", () => {
    const first = createLoopDetector();
    const second = createLoopDetector();
    const [c, r] = same();
    first.afterToolCall!(c, r);
    first.afterToolCall!(c, r);
    expect((second.afterToolCall!(c, r) as AfterToolCallOutcome).reminder).toBeUndefined();
    expect((first.afterToolCall!(c, r) as AfterToolCallOutcome).reminder).toBeDefined();
  });
});

describe("polling a background process", () => {
  let elapsed = 0;
  const poll = (): [ToolCallBlock, ToolResult] => [
    call("process", { action: "poll", sessionId: "s1" }),
    text(`(no new output)\n\n[running for ${((elapsed += 30.1)).toFixed(1)} s (pid 812)]`),
  ];

  it("waits longer before reminding (10) and stopping (20)", () => {
    const outcomes = summary(run(times(20, poll)));
    expect(outcomes.slice(0, 9)).toEqual(times(9, () => "-"));
    expect(outcomes.slice(9, 19)).toEqual(times(10, () => "remind"));
    expect(outcomes[19]).toBe("stop");
  });

  it("the poll reminder suggests waiting longer", () => {
    expect(run(times(10, poll))[9]?.reminder).toContain("longer timeout");
  });

  it("new output is progress", () => {
    const steps = times(20, (i): [ToolCallBlock, ToolResult] => [call("process", { action: "poll", sessionId: "s1" }), text(`compiled ${i} files\n\n[running]`)]);
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });
});

describe("same file read", () => {
  const read = (path: string, content = "hello", extra: Record<string, unknown> = {}): [ToolCallBlock, ToolResult] => [call("read", { path, ...extra }), text(content)];
  /** read(path) n times, each separated by a distinct other call */
  const interleaved = (n: number, path = "src/a.ts") => times(n, (i) => [filler(i), read(path)]).flat() as [ToolCallBlock, ToolResult][];
  const readsOnly = (outcomes: AfterToolCallOutcome[]) => summary(outcomes.filter((_, i) => i % 2 === 1));

  it("allows 5 reads, reminds from the 6th, stops at the 10th", () => {
    const outcomes = run(interleaved(10));
    expect(readsOnly(outcomes)).toEqual(["-", "-", "-", "-", "-", "remind", "remind", "remind", "remind", "stop"]);
    expect(outcomes[11]?.reminder).toContain("read `src/a.ts` 6 times");
    expect(outcomes[19]?.stop).toContain("`src/a.ts` was read 10 times");
  });

  it("counts per file", () => {
    const steps = times(6, (i) => [filler(i), read(i % 2 ? "a.ts" : "b.ts")]).flat() as [ToolCallBlock, ToolResult][];
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });

  it("./a.ts and a.ts are the same file", () => {
    const steps = times(6, (i) => [filler(i), read(i % 2 ? "./a.ts" : "a.ts")]).flat() as [ToolCallBlock, ToolResult][];
    expect(readsOnly(run(steps))[5]).toBe("remind");
  });

  it("paging through a file with new offsets is not a loop", () => {
    const steps = times(12, (i) => read("big.log", `page ${i}`, { offset: i * 100 + 1, limit: 100 }));
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });

  it.each([
    { name: "write", change: call("write", { path: "src/a.ts", content: "x" }) },
    { name: "edit", change: call("edit", { path: "src/a.ts", edits: [{ oldText: "a", newText: "b" }] }) },
    { name: "apply_patch", change: call("apply_patch", { input: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch" }) },
    { name: "exec (could change anything)", change: call("exec", { command: "sed -i s/a/b/ src/a.ts" }) },
  ])("a successful $name to the file resets its count", ({ change }) => {
    const steps: [ToolCallBlock, ToolResult][] = [...interleaved(5), [change, text("ok")], ...interleaved(5)];
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });

  it("a change to another file does not reset it", () => {
    const steps: [ToolCallBlock, ToolResult][] = [...interleaved(5), [call("write", { path: "src/b.ts", content: "x" }), text("ok")], ...interleaved(1)];
    expect(summary(run(steps)).at(-1)).toBe("remind");
  });

  it("a failed write changed nothing and does not reset", () => {
    const steps: [ToolCallBlock, ToolResult][] = [...interleaved(5), [call("write", { path: "src/a.ts", content: "x" }), text('{"error":"EACCES"}', true)], ...interleaved(1)];
    expect(summary(run(steps)).at(-1)).toBe("remind");
  });

  it("new content (changed from outside) restarts the count", () => {
    const steps: [ToolCallBlock, ToolResult][] = [
      ...interleaved(5),
      filler(99),
      read("src/a.ts", "changed"),
      ...times(4, (i) => [filler(200 + i), read("src/a.ts", "changed")]).flat(),
    ] as [ToolCallBlock, ToolResult][];
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });

  it("custom read threshold", () => {
    expect(readsOnly(run(interleaved(3), { readThreshold: 2 }))).toEqual(["-", "-", "remind"]);
  });
});

describe("ping-pong", () => {
  const a = (): [ToolCallBlock, ToolResult] => [call("read", { path: "a.ts" }), text("content")];
  const b = (): [ToolCallBlock, ToolResult] => [call("exec", { command: "npm test" }), text("1 failing")];
  const alternate = (n: number) => times(n, (i) => (i % 2 === 0 ? a() : b()));

  it("reminds after 3 round trips (6 calls) and stops after 6 (12 calls)", () => {
    // exec resets read counts, so only the ping-pong rule can see this loop
    const outcomes = run(alternate(12));
    expect(summary(outcomes)).toEqual(["-", "-", "-", "-", "-", "remind", "remind", "remind", "remind", "remind", "remind", "stop"]);
    expect(outcomes[5]?.reminder).toContain("alternating between `read` and `exec`");
    expect(outcomes[11]?.stop).toContain("alternated 6 times");
  });

  it("no ping-pong when one side's result changes", () => {
    const steps = times(12, (i) => (i % 2 === 0 ? a() : ([call("exec", { command: "npm test" }), text(`${i} failing`)] as [ToolCallBlock, ToolResult])));
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });

  it("a third call breaks the alternation", () => {
    const steps = [...alternate(5), filler(1), ...alternate(4)];
    expect(summary(run(steps)).every((s) => s === "-")).toBe(true);
  });
});

describe("rules together", () => {
  it("a reminder from two rules is joined; a stop wins over reminders", () => {
    // Same read back to back: the repeat rule reminds at 3; with readThreshold 2 the read rule too.
    const outcomes = run(
      times(3, () => [call("read", { path: "a.ts" }), text("x")]),
      { readThreshold: 2 },
    );
    expect(outcomes[2]?.reminder).toContain("3 times in a row");
    expect(outcomes[2]?.reminder).toContain("read `a.ts` 3 times");
    const stopped = run(times(6, () => [call("read", { path: "a.ts" }), text("x")]));
    expect(stopped[5]).toMatchObject({ stop: expect.stringContaining("6 times in a row") });
    expect(stopped[5]?.reminder).toBeUndefined();
  });
});
