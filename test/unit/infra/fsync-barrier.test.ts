import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FsyncBarrier } from "../../../src/infra/fsync-barrier.js";

describe("FsyncBarrier", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shares fsyncs: callers during a running fsync wait for exactly one more", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "barrier-")), "log");
    fs.writeFileSync(file, "x");
    const fsync = vi.spyOn(fs, "fsync");
    const barrier = new FsyncBarrier();
    const first = barrier.sync(file);
    const second = barrier.sync(file);
    const third = barrier.sync(file);
    expect(second).toBe(third);
    await Promise.all([first, second, third]);
    expect(fsync).toHaveBeenCalledTimes(2);
    await barrier.sync(file);
    expect(fsync).toHaveBeenCalledTimes(3);
  });

  it("rejects when the file cannot be synced, and recovers for the next call", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "barrier-"));
    const barrier = new FsyncBarrier();
    await expect(barrier.sync(path.join(dir, "missing"))).rejects.toThrow();
    fs.writeFileSync(path.join(dir, "missing"), "now here");
    await expect(barrier.sync(path.join(dir, "missing"))).resolves.toBeUndefined();
  });
});
