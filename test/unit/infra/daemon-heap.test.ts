import { describe, expect, it } from "vitest";
import { DAEMON_HEAP_GROWING_PERCENT, tuneHeapForDaemon } from "../../../src/infra/daemon-heap.js";

// Setting V8 flags is global to this worker's isolate, harmless for a test run.
describe("tuneHeapForDaemon", () => {
  it("caps heap growth and compacts on every full GC when the user gave neither", () => {
    expect(tuneHeapForDaemon(["--enable-source-maps"], "--max-old-space-size=512")).toEqual([
      `--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`,
      "--compact-on-every-full-gc",
    ]);
  });

  it("leaves a heap growing percent the user gave node alone, on the command line or in NODE_OPTIONS", () => {
    expect(tuneHeapForDaemon(["--heap-growing-percent=50"], "")).toEqual(["--compact-on-every-full-gc"]);
    expect(tuneHeapForDaemon([], "--max-old-space-size=512 --heap_growing_percent=10")).toEqual(["--compact-on-every-full-gc"]);
  });

  it("leaves compaction alone when the user turned it on or off", () => {
    expect(tuneHeapForDaemon(["--no-compact-on-every-full-gc"], "")).toEqual([`--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`]);
    expect(tuneHeapForDaemon([], "--compact_on_every_full_gc --heap-growing-percent=20")).toEqual([]);
  });
});
