import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { writeFileAtomicAsync } from "../../../../src/infra/atomic-file.js";
import { makeStateDir, openStore, readIndex, sessionsDirOf } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("background index writes", () => {
  it("writeFileAtomicAsync replaces the file, or leaves it (and no temp file) when told newer content won", async () => {
    const dir = makeStateDir();
    const file = path.join(dir, "index.json");
    fs.writeFileSync(file, "old");
    expect(await writeFileAtomicAsync(file, "new", 0o600, () => true)).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe("new");
    expect(await writeFileAtomicAsync(file, "stale", 0o600, () => false)).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe("new");
    expect(fs.readdirSync(dir)).toEqual(["index.json"]);
  });

  it("a coalesced write still in flight never puts back an index older than a synchronous write made meanwhile", async () => {
    for (let round = 0; round < 20; round += 1) {
      const stateDir = makeStateDir();
      const store = openStore(stateDir, { flushDelayMs: 1 });
      store.ensure("agent:main:a");
      store.patch("agent:main:a", { label: `round ${round}` });
      // The coalesced write starts after 1 ms; a structural change lands while it is in flight.
      await sleep(1 + (round % 3));
      store.ensure("agent:main:b");
      await store.indexWritesSettled();
      const index = readIndex(stateDir);
      expect(Object.keys(index).sort()).toEqual(["agent:main:a", "agent:main:b"]);
      expect(index["agent:main:a"]!.label).toBe(`round ${round}`);
      expect(fs.readdirSync(sessionsDirOf(stateDir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    }
  });
});

describe("flushBeforeExit (a stop cut short)", () => {
  it("writes the updates still waiting for their coalesced write, synchronously", () => {
    const stateDir = makeStateDir();
    const store = openStore(stateDir, { flushDelayMs: 60_000 });
    store.ensure("agent:main:a");
    store.patch("agent:main:a", { label: "kept" });
    expect(fs.existsSync(path.join(sessionsDirOf(stateDir), "sessions.json"))).toBe(false);
    expect(store.flushBeforeExit()).toBe("written");
    expect(readIndex(stateDir)["agent:main:a"]!.label).toBe("kept");
    expect(store.flushBeforeExit()).toBe("nothing pending");
  });

  it("leaves them when one of the store's index writes has been under way for over a second: the disk is not answering", async () => {
    const stateDir = makeStateDir();
    const store = openStore(stateDir, { flushDelayMs: 60_000 });
    store.ensure("agent:main:a");
    store.flush();
    // A durable patch starts a background write; another change then waits for the coalesced one.
    store.patch("agent:main:a", { label: "in flight" }, { durable: true });
    store.patch("agent:main:a", { label: "pending" });
    const realNow = performance.now();
    const clock = vi.spyOn(performance, "now").mockReturnValue(realNow + 1_500);
    try {
      expect(store.flushBeforeExit()).toBe("skipped: an index write is stuck");
    } finally {
      clock.mockRestore();
    }
    await store.whenDurable("agent:main:a");
    expect(readIndex(stateDir)["agent:main:a"]!.label).toBe("in flight");
    expect(store.flushBeforeExit()).toBe("written");
    expect(readIndex(stateDir)["agent:main:a"]!.label).toBe("pending");
  });
});
