import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AcpSessionRecords, type AcpSessionRecord } from "../../../src/acp/control-plane/session-records.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "acp-records-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const record = (sessionKey: string): AcpSessionRecord => ({
  sessionKey,
  agent: "fake",
  cwd: dir,
  mode: "persistent",
  state: "starting",
  createdAt: 1,
  lastActiveAt: 1,
  turns: 0,
});
const onDisk = (records: AcpSessionRecords) => JSON.parse(fs.readFileSync(records.file, "utf8")).sessions as AcpSessionRecord[];

describe("AcpSessionRecords", () => {
  it("put and update are on disk when they return; note is in memory at once and on disk once settled", async () => {
    const records = new AcpSessionRecords(dir, () => {});
    records.load();
    records.put(record("a"));
    expect(onDisk(records)[0]).toMatchObject({ sessionKey: "a", state: "starting" });

    records.note("a", { state: "ready", backendSessionId: "backend-1", pid: 4242 });
    expect(records.get("a")).toMatchObject({ state: "ready", backendSessionId: "backend-1", pid: 4242 });
    await records.settled();
    expect(onDisk(records)[0]).toMatchObject({ state: "ready", backendSessionId: "backend-1", pid: 4242 });

    // A fresh instance (a restarted gateway) reads what was noted.
    const reloaded = new AcpSessionRecords(dir, () => {});
    reloaded.load();
    expect(reloaded.get("a")).toMatchObject({ state: "ready", backendSessionId: "backend-1" });
  });

  it("a background write that finishes after a synchronous one never puts older content back", async () => {
    const records = new AcpSessionRecords(dir, () => {});
    records.load();
    records.put(record("a"));
    records.note("a", { state: "running" });
    // Before the background write has even started, a synchronous update writes newer content.
    records.update("a", { state: "ready", turns: 1 });
    await records.settled();
    expect(onDisk(records)[0]).toMatchObject({ state: "ready", turns: 1 });
    expect(fs.readdirSync(path.join(dir, "acp")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
