import { describe, expect, it } from "vitest";
import { tuneHeapForDaemon } from "../../../src/infra/daemon-heap.js";

describe("tuneHeapForDaemon", () => {
  it("leaves a heap growing percent the user gave node alone, on the command line or in NODE_OPTIONS", () => {
    expect(tuneHeapForDaemon(["--heap-growing-percent=50"], "")).toBe(false);
    expect(tuneHeapForDaemon([], "--max-old-space-size=512 --heap_growing_percent=10")).toBe(false);
  });

  it("caps heap growth otherwise", () => {
    // Setting the flag is global to this worker's isolate, harmless for a test run.
    expect(tuneHeapForDaemon(["--enable-source-maps"], "--max-old-space-size=512")).toBe(true);
  });
});
