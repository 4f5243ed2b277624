import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runMaintenancePass, type PassReport } from "../../../src/conversations/maintenance-pass.js";
import { SessionStore } from "../../../src/sessions/store/index.js";

/** The report of the pass the gateway runs hourly and `openclaw sessions cleanup` runs on demand. */

const HOUR = 3600_000;
const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function stateDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "maint-pass-"));
}

/** Sessions updated `hoursAgo` hours ago (the store's clock set back while they are created). */
function seed(dir: string, hoursAgo: number, ...keys: string[]): void {
  const past = new SessionStore(dir, { now: () => Date.now() - hoursAgo * HOUR });
  for (const key of keys) past.ensure(key);
  past.close();
}

function open(dir: string): SessionStore {
  const store = new SessionStore(dir);
  stores.push(store);
  return store;
}

const actions = (report: PassReport, agentId = "main") =>
  Object.fromEntries(report.agents.find((a) => a.agentId === agentId)!.sessions.map((s) => [s.key, s.action === "keep" ? `keep:${s.reason}` : s.action]));

const filesOf = (dir: string, agentId = "main") => fs.readdirSync(path.join(dir, "agents", agentId, "sessions")).sort();

describe("runMaintenancePass", () => {
  it("gives every session a verdict: archived for its age or for the cap, or kept with the protection that kept it", () => {
    const dir = stateDir();
    seed(dir, 50, "agent:main:old", "agent:main:old-pinned", "agent:main:old-protected");
    seed(dir, 8, "agent:main:a");
    seed(dir, 7, "agent:main:b");
    seed(dir, 6, "agent:main:c");
    seed(dir, 5, "agent:main:d");
    seed(dir, 2, "agent:main:telegram:direct:1");
    const store = open(dir);
    store.patch("agent:main:old-pinned", { pinnedAt: 1 });
    store.ensure("agent:main:running");
    store.claimWriter("agent:main:running", "run-1");
    const report = runMaintenancePass(store, { pruneAfter: "2d", maxEntries: 5, preserveRecent: "3h" }, { dryRun: true, protectedKeys: ["agent:main:old-protected"] });
    expect(report).toMatchObject({ mode: "enforce", applied: false });
    // 9 sessions, 1 archived for its age; protected ones count toward the cap of 5, which takes the oldest of the others.
    expect(actions(report)).toEqual({
      "agent:main:old": "archive-age",
      "agent:main:a": "archive-cap",
      "agent:main:b": "archive-cap",
      "agent:main:c": "archive-cap",
      "agent:main:old-pinned": "keep:pinned",
      "agent:main:old-protected": "keep:active-key",
      "agent:main:d": "keep:within-limits",
      "agent:main:telegram:direct:1": "keep:recent",
      "agent:main:running": "keep:running",
    });
    // The verdicts come archived first, in the order chosen.
    expect(report.agents[0]!.sessions.slice(0, 4).map((s) => s.key)).toEqual(["agent:main:old", "agent:main:a", "agent:main:b", "agent:main:c"]);
    expect(store.list("main")).toHaveLength(9);
  });

  it("a dry run changes nothing and reports what the real pass then does", () => {
    const dir = stateDir();
    seed(dir, 50, "agent:main:stale-1", "agent:main:stale-2");
    seed(dir, 1, "agent:main:fresh");
    const archivesDir = path.join(dir, "agents", "main", "sessions");
    const oldArchive = path.join(archivesDir, "gone.jsonl.deleted.2020-01-01T00-00-00.000Z");
    fs.writeFileSync(oldArchive, `${JSON.stringify({ type: "session", sessionKey: "agent:main:gone" })}\n`);
    const store = open(dir);
    const before = filesOf(dir);
    const settings = { pruneAfter: "2d", resetArchiveRetention: "30d" };

    const preview = runMaintenancePass(store, settings, { dryRun: true });
    expect(filesOf(dir)).toEqual(before);
    expect(store.list().map((e) => e.sessionKey)).toHaveLength(3);

    const real = runMaintenancePass(store, settings);
    expect(real.applied).toBe(true);
    // The same verdicts and archives; the folder's size differs by the index rows the pass removed.
    const strip = (r: PassReport) => r.agents.map((a) => ({ ...a, sessions: a.sessions.map((s) => `${s.key} ${s.action}`), diskBudget: a.diskBudget?.removed }));
    expect(strip(real)).toEqual(strip(preview));
    expect(real.agents[0]!.expiredArchives).toEqual([{ file: oldArchive, bytes: expect.any(Number) }]);
    expect(store.list().map((e) => e.sessionKey)).toEqual(["agent:main:fresh"]);
    expect(fs.existsSync(oldArchive)).toBe(false);
    expect(filesOf(dir).filter((f) => f.includes(".jsonl.deleted."))).toHaveLength(2);
  });

  it("in warn mode nothing changes unless enforce: the report then says what is due", () => {
    const dir = stateDir();
    seed(dir, 50, "agent:main:stale");
    const store = open(dir);
    const warned = runMaintenancePass(store, { mode: "warn", pruneAfter: "2d" });
    expect(warned).toMatchObject({ mode: "warn", applied: false });
    expect(actions(warned)).toEqual({ "agent:main:stale": "archive-age" });
    expect(store.get("agent:main:stale")).toBeDefined();

    expect(runMaintenancePass(store, { mode: "warn", pruneAfter: "2d" }, { enforce: true, dryRun: true }).applied).toBe(false);
    expect(store.get("agent:main:stale")).toBeDefined();
    const enforced = runMaintenancePass(store, { mode: "warn", pruneAfter: "2d" }, { enforce: true });
    expect(enforced).toMatchObject({ mode: "warn", applied: true });
    expect(store.get("agent:main:stale")).toBeUndefined();
  });

  it("covers only the agents named", () => {
    const dir = stateDir();
    seed(dir, 50, "agent:main:stale", "agent:work:stale");
    const store = open(dir);
    const report = runMaintenancePass(store, { pruneAfter: "2d" }, { agentIds: ["work"] });
    expect(report.agents.map((a) => a.agentId)).toEqual(["work"]);
    expect(store.get("agent:work:stale")).toBeUndefined();
    expect(store.get("agent:main:stale")).toBeDefined();
  });

  it("a dry run's disk budget counts the steps before it: archives retention removes are gone, sessions it archives are archives", () => {
    const dir = stateDir();
    seed(dir, 50, "agent:main:stale");
    const store = open(dir);
    const live = store.ensure("agent:main:live").sessionFile;
    const sessions = path.dirname(live);
    const kib = (n: number) => "x".repeat(n * 1024);
    fs.appendFileSync(store.get("agent:main:stale")!.sessionFile, kib(4));
    fs.appendFileSync(live, kib(4));
    // An old deleted archive that retention removes, and a rotated one the budget may take.
    const expired = path.join(sessions, "x.jsonl.deleted.2020-01-01T00-00-00.000Z");
    fs.writeFileSync(expired, `${JSON.stringify({ type: "session", sessionKey: "agent:main:x" })}\n${kib(4)}`);
    const rotated = path.join(sessions, "y.jsonl.rotated.2020-01-02T00-00-00.000Z");
    fs.writeFileSync(rotated, kib(4));
    const settings = { pruneAfter: "2d", resetArchiveRetention: "30d", maxDiskBytes: "10kb", highWaterBytes: "6kb" };

    const preview = runMaintenancePass(store, settings, { dryRun: true }).agents[0]!;
    // After retention about 12 KiB are left, over 10 KiB: the just-archived stale transcript (tier 0) goes, then the rotated one.
    expect(preview.expiredArchives.map((f) => f.file)).toEqual([expired]);
    const staleFile = store.get("agent:main:stale")!.sessionFile;
    expect(preview.diskBudget!.removed.map((f) => f.file)).toEqual([staleFile, rotated]);

    const real = runMaintenancePass(store, settings).agents[0]!;
    expect(real.diskBudget!.removed.map((f) => path.basename(f.file))).toEqual([
      expect.stringMatching(new RegExp(`^${path.basename(staleFile)}\\.deleted\\.`)),
      path.basename(rotated),
    ]);
    expect(real.diskBudget!.afterBytes).toBeLessThanOrEqual(6 * 1024);
    expect(fs.existsSync(live)).toBe(true);
  });
});
