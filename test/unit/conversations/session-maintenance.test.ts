import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { PRUNE_AFTER_MS, startSessionMaintenance } from "../../../src/conversations/session-maintenance.js";

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
      startSessionMaintenance(store, logger, () => ({ mode: "warn", pruneAfter: "1h", maxEntries: 1 })).stop();
      expect(["two-hours", "a-minute", "now"].map((k) => store.get(`agent:main:${k}`) !== undefined)).toEqual([true, true, true]);
      expect(warned).toEqual([
        expect.objectContaining({ count: 2, sessions: ["agent:main:two-hours", "agent:main:a-minute"], msg: "sessions due for archiving kept (session.maintenance.mode is warn)" }),
      ]);

      startSessionMaintenance(store, logger, () => ({ pruneAfter: "1h" })).stop();
      expect(["two-hours", "a-minute", "now"].map((k) => store.get(`agent:main:${k}`) !== undefined)).toEqual([false, true, true]);
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
});
