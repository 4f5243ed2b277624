import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { PRUNE_AFTER_MS } from "../../../src/conversations/maintenance-pass.js";
import { startSessionMaintenance } from "../../../src/conversations/session-maintenance.js";

describe("session maintenance", () => {
  it("archives sessions idle past the retention at start-up and keeps recent ones", () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "maint-"));
    const old = new SessionStore(stateDir, { now: () => Date.now() - PRUNE_AFTER_MS - 60_000 });
    const stale = old.ensure("agent:main:stale");
    old.close();
    const store = new SessionStore(stateDir);
    store.ensure("agent:main:fresh");
    const maintenance = startSessionMaintenance(store, pino({ level: "silent" }));
    try {
      expect(store.get("agent:main:stale")).toBeUndefined();
      expect(store.get("agent:main:fresh")).toBeDefined();
      expect(fs.existsSync(stale.sessionFile)).toBe(false);
      expect(fs.readdirSync(path.dirname(stale.sessionFile)).some((f) => f.startsWith(`${path.basename(stale.sessionFile)}.deleted.`))).toBe(true);
      expect(maintenance.rotateIfLarge("agent:main:fresh")).toBe(false);
    } finally {
      maintenance.stop();
      store.close();
    }
  });

  it("takes session.maintenance: pruneAfter and maxEntries bound the store; warn reports what is due and archives nothing", () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "maint-"));
    const earlier = new SessionStore(stateDir, { now: () => Date.now() - 2 * 3600_000 });
    earlier.ensure("agent:main:two-hours");
    earlier.close();
    const recent = new SessionStore(stateDir, { now: () => Date.now() - 60_000 });
    recent.ensure("agent:main:a-minute");
    recent.close();
    const store = new SessionStore(stateDir);
    store.ensure("agent:main:now");
    const warned: unknown[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warned.push(JSON.parse(line)) });
    try {
      const archived: string[] = [];
      startSessionMaintenance(
        store,
        logger,
        () => ({ mode: "warn", pruneAfter: "1h", maxEntries: 1 }),
        (key) => archived.push(key),
      ).stop();
      expect(archived).toEqual([]);
      expect(["two-hours", "a-minute", "now"].map((k) => store.get(`agent:main:${k}`) !== undefined)).toEqual([true, true, true]);
      expect(warned).toEqual([
        expect.objectContaining({ count: 2, sessions: ["agent:main:two-hours", "agent:main:a-minute"], msg: "sessions due for archiving kept (session.maintenance.mode is warn)" }),
      ]);

      startSessionMaintenance(
        store,
        logger,
        () => ({ pruneAfter: "1h" }),
        (key) => archived.push(key),
      ).stop();
      expect(["two-hours", "a-minute", "now"].map((k) => store.get(`agent:main:${k}`) !== undefined)).toEqual([false, true, true]);
      expect(archived).toEqual(["agent:main:two-hours"]);
      startSessionMaintenance(store, logger, () => ({ maxEntries: 1 })).stop();
      expect(["a-minute", "now"].map((k) => store.get(`agent:main:${k}`) !== undefined)).toEqual([false, true]);
    } finally {
      store.close();
    }
  });

  it("preserveRecent keeps chat sessions active within it from pruneAfter and maxEntries; the runtime's own sessions stay removable", () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "maint-"));
    const earlier = new SessionStore(stateDir, { now: () => Date.now() - 2 * 3600_000 });
    for (const key of ["telegram:direct:42", "cron:nightly", "discord:channel:9"]) earlier.ensure(`agent:main:${key}`);
    earlier.close();
    const older = new SessionStore(stateDir, { now: () => Date.now() - 3 * 86_400_000 });
    older.ensure("agent:main:slack:channel:c1");
    older.close();
    const store = new SessionStore(stateDir);
    store.ensure("agent:main:now");
    try {
      startSessionMaintenance(store, pino({ level: "silent" }), () => ({ pruneAfter: "1h", maxEntries: 1, preserveRecent: "1d" })).stop();
      const kept = ["telegram:direct:42", "cron:nightly", "discord:channel:9", "slack:channel:c1", "now"].filter((k) => store.get(`agent:main:${k}`) !== undefined);
      expect(kept).toEqual(["telegram:direct:42", "discord:channel:9", "now"]);
      startSessionMaintenance(store, pino({ level: "silent" }), () => ({ pruneAfter: "1h", preserveRecent: false })).stop();
      expect(["telegram:direct:42", "discord:channel:9", "now"].filter((k) => store.get(`agent:main:${k}`) !== undefined)).toEqual(["now"]);
    } finally {
      store.close();
    }
  });
  it("resetArchiveRetention removes reset and deleted archives older than it; unset keeps them; warn only reports", () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "maint-"));
    const monthAgo = new SessionStore(stateDir, { now: () => Date.now() - 40 * 86_400_000 });
    monthAgo.ensure("agent:main:a");
    monthAgo.reset("agent:main:a");
    monthAgo.ensure("agent:main:b");
    monthAgo.delete("agent:main:b");
    monthAgo.close();
    const store = new SessionStore(stateDir);
    store.reset("agent:main:a");
    const dir = path.dirname(store.get("agent:main:a")!.sessionFile);
    const archives = () => fs.readdirSync(dir).filter((f) => /\.(reset|deleted)\./.test(f)).length;
    const warned: unknown[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warned.push(JSON.parse(line)) });
    try {
      expect(archives()).toBe(3);
      startSessionMaintenance(store, logger, () => ({})).stop();
      expect(archives()).toBe(3);
      startSessionMaintenance(store, logger, () => ({ mode: "warn", resetArchiveRetention: "30d" })).stop();
      expect(archives()).toBe(3);
      expect(warned).toContainEqual(expect.objectContaining({ count: 2, msg: expect.stringContaining("past session.maintenance.resetArchiveRetention kept") }));
      startSessionMaintenance(store, logger, () => ({ resetArchiveRetention: "30d" })).stop();
      expect(archives()).toBe(1);
      startSessionMaintenance(store, logger, () => ({ resetArchiveRetention: false })).stop();
      expect(archives()).toBe(1);
    } finally {
      store.close();
    }
  });

  it("maxDiskBytes: over the budget, the oldest reset and deleted archives go first, then rotated ones, down to highWaterBytes; live transcripts stay", () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "maint-"));
    const store = new SessionStore(stateDir);
    const live = store.ensure("agent:main:live").sessionFile;
    const dir = path.dirname(live);
    const kib = (n: number) => "x".repeat(n * 1024);
    const archive = (kind: string, day: number) => {
      const file = path.join(dir, `old-${kind}-${day}.jsonl.${kind}.2026-01-${String(day).padStart(2, "0")}T00-00-00.000Z`);
      fs.writeFileSync(file, kib(3));
      return path.basename(file);
    };
    const rotatedOldest = archive("rotated", 1);
    const resetNewer = archive("reset", 5);
    const deletedOldest = archive("deleted", 2);
    const rotatedNewer = archive("rotated", 6);
    fs.appendFileSync(live, kib(2));
    const present = () => fs.readdirSync(dir);
    const logged: { msg: string }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => logged.push(JSON.parse(line)) });
    try {
      // 14 KiB and a bit over a 10 KiB budget: warn removes nothing.
      startSessionMaintenance(store, logger, () => ({ mode: "warn", maxDiskBytes: "10kb", highWaterBytes: "6kb" })).stop();
      expect(present()).toEqual(expect.arrayContaining([rotatedOldest, resetNewer, deletedOldest, rotatedNewer]));
      expect(logged.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^agent main's sessions take 14\.\d KiB of 10 KiB: 3 archives due for removal kept/));
      // Enforced: deleted (oldest), then reset, then the oldest rotated generation: down to 6 KiB or below.
      startSessionMaintenance(store, logger, () => ({ maxDiskBytes: "10kb", highWaterBytes: "6kb" })).stop();
      expect(present()).not.toEqual(expect.arrayContaining([deletedOldest]));
      expect(present().filter((f) => [rotatedOldest, resetNewer, deletedOldest, rotatedNewer].includes(f))).toEqual([rotatedNewer]);
      expect(fs.existsSync(live)).toBe(true);
      expect(logged.map((l) => l.msg)).toContainEqual(expect.stringContaining("removed the 3 oldest archives (session.maintenance.maxDiskBytes)"));
      // Live transcripts alone over the budget: said, nothing live touched.
      fs.appendFileSync(live, kib(12));
      startSessionMaintenance(store, logger, () => ({ maxDiskBytes: "10kb" })).stop();
      expect(fs.existsSync(live)).toBe(true);
      expect(logged.map((l) => l.msg)).toContainEqual(expect.stringContaining("what is left is live transcripts"));
      // 0 and false turn the budget off.
      const before = present().length;
      startSessionMaintenance(store, logger, () => ({ maxDiskBytes: 0 })).stop();
      startSessionMaintenance(store, logger, () => ({ maxDiskBytes: false })).stop();
      expect(present()).toHaveLength(before);
    } finally {
      store.close();
    }
  });
});
