import { afterEach, describe, expect, it } from "vitest";
import {
  COMPACT_EVERY_GC_RESUME_BELOW_MIB,
  COMPACT_EVERY_GC_UP_TO_MIB,
  CompactionSwitch,
  DAEMON_HEAP_GROWING_PERCENT,
  tuneHeapForDaemon,
  type DaemonHeapTuning,
} from "../../../src/infra/daemon-heap.js";

const MiB = 1024 * 1024;
const COMPACTION = "--compact-on-every-full-gc (while the old generation is small)";

// Setting V8 flags is global to this worker's isolate, harmless for a test run.
describe("tuneHeapForDaemon", () => {
  let tuning: DaemonHeapTuning | undefined;
  afterEach(() => tuning?.stop());

  it("caps heap growth and compacts on every full GC when the user gave neither", () => {
    tuning = tuneHeapForDaemon(["--enable-source-maps"], "--max-old-space-size=512");
    expect(tuning.flags).toEqual([`--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`, COMPACTION]);
  });

  it("leaves a heap growing percent the user gave node alone, on the command line or in NODE_OPTIONS", () => {
    tuning = tuneHeapForDaemon(["--heap-growing-percent=50"], "");
    expect(tuning.flags).toEqual([COMPACTION]);
    tuning.stop();
    tuning = tuneHeapForDaemon([], "--max-old-space-size=512 --heap_growing_percent=10");
    expect(tuning.flags).toEqual([COMPACTION]);
  });

  it("leaves compaction alone when the user turned it on or off", () => {
    tuning = tuneHeapForDaemon(["--no-compact-on-every-full-gc"], "");
    expect(tuning.flags).toEqual([`--heap-growing-percent=${DAEMON_HEAP_GROWING_PERCENT}`]);
    expect(tuneHeapForDaemon([], "--compact_on_every_full_gc --heap-growing-percent=20").flags).toEqual([]);
  });
});

describe("CompactionSwitch", () => {
  it("compacts while the old generation is small, stops above the upper mark, resumes below the lower one", () => {
    const set: string[] = [];
    const compaction = new CompactionSwitch((flags) => set.push(flags));
    expect(compaction.update(20 * MiB)).toBe(true);
    expect(compaction.update(COMPACT_EVERY_GC_UP_TO_MIB * MiB)).toBe(true);
    expect(compaction.update((COMPACT_EVERY_GC_UP_TO_MIB + 1) * MiB)).toBe(false);
    // Between the marks it stays as it is: no flapping around one size.
    expect(compaction.update((COMPACT_EVERY_GC_RESUME_BELOW_MIB + 1) * MiB)).toBe(false);
    expect(compaction.update((COMPACT_EVERY_GC_RESUME_BELOW_MIB - 1) * MiB)).toBe(true);
    // V8 is told only on a change.
    expect(set).toEqual(["--compact-on-every-full-gc", "--no-compact-on-every-full-gc", "--compact-on-every-full-gc"]);
  });

  it("never compacts every GC on a heap that starts big", () => {
    const set: string[] = [];
    const compaction = new CompactionSwitch((flags) => set.push(flags));
    expect(compaction.update(200 * MiB)).toBe(false);
    expect(compaction.update(60 * MiB)).toBe(false);
    expect(set).toEqual([]);
  });
});
