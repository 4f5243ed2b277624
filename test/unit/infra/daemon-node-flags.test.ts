import { describe, expect, it } from "vitest";
import { DAEMON_NODE_FLAGS, daemonNodeFlags } from "../../../src/infra/daemon-node-flags.js";
// @ts-expect-error: a plain .mjs module without types
import { DAEMON_EXEC_ARGV } from "../../../bench/lib/spawn-gateway.mjs";

describe("daemonNodeFlags", () => {
  it("gives the daemon's heap flags when the user gave none", () => {
    expect(daemonNodeFlags(["--enable-source-maps"], "--max-old-space-size=512")).toEqual([...DAEMON_NODE_FLAGS]);
    expect(DAEMON_NODE_FLAGS).toEqual(["--heap-growing-percent=30", "--max-semi-space-size=2", "--v8-pool-size=1"]);
  });

  it("leaves a flag the user gave node alone, on its command line or in NODE_OPTIONS, in either spelling", () => {
    expect(daemonNodeFlags(["--heap-growing-percent=50"], "")).toEqual(["--max-semi-space-size=2", "--v8-pool-size=1"]);
    expect(daemonNodeFlags(["--heap-growing-percent=50", "--max_semi_space_size=16"], "--v8-pool-size=4")).toEqual([]);
    expect(daemonNodeFlags([], "--max-old-space-size=512 --heap_growing_percent=10 --max-semi-space-size=8 --v8_pool_size=2")).toEqual([]);
  });

  it("the bench spawns the gateway with the same flags", () => {
    expect(DAEMON_EXEC_ARGV).toEqual([...DAEMON_NODE_FLAGS]);
  });
});
