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
});
