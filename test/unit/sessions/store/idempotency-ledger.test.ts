import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IdempotencyLedger, MAX_RESULT_BYTES, type IdempotencyLedgerOptions } from "../../../../src/sessions/idempotency/index.js";
import { makeStateDir } from "./helpers.js";

const ledgers: IdempotencyLedger[] = [];
function open(state: string, options: IdempotencyLedgerOptions = {}): IdempotencyLedger {
  const ledger = new IdempotencyLedger(state, options);
  ledgers.push(ledger);
  return ledger;
}
afterEach(() => {
  for (const l of ledgers.splice(0)) l.close();
  vi.restoreAllMocks();
});

const lines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("IdempotencyLedger", () => {
  it("writes nothing when opened on a fresh state dir; the first begin creates the file", () => {
    const state = makeStateDir();
    const ledger = open(state);
    expect(fs.existsSync(ledger.file)).toBe(false);
    ledger.begin("k1", { runId: "k1", method: "agent" });
    expect(lines(ledger.file)).toMatchObject([{ op: "begin", key: "k1" }]);
    ledger.close();
    // Reopened, it compacts what is there (a torn last line included) before appending again.
    fs.appendFileSync(ledger.file, '{"op":"beg');
    const reopened = open(state);
    expect(reopened.get("k1")).toMatchObject({ status: "interrupted" });
    expect(fs.readFileSync(reopened.file, "utf8").endsWith("\n")).toBe(true);
  });

  it("begin is check-and-set: the first caller starts, every later one gets the record", () => {
    const state = makeStateDir();
    const ledger = open(state, { now: () => 1_000 });
    const first = ledger.begin("k1", { runId: "k1", sessionKey: "agent:main:main", method: "chat.send" });
    expect(first).toEqual({ fresh: true, record: { key: "k1", runId: "k1", sessionKey: "agent:main:main", method: "chat.send", status: "in_flight", startedAt: 1_000 } });
    const again = ledger.begin("k1", { runId: "other", method: "agent" });
    expect(again.fresh).toBe(false);
    expect(again.record).toMatchObject({ runId: "k1", status: "in_flight" });
    expect(ledger.file).toBe(path.join(state, "gateway", "idempotency.jsonl"));
  });

  it("begin is durable before it returns (append + fsync)", () => {
    const ledger = open(makeStateDir());
    const fsync = vi.spyOn(fs, "fsyncSync");
    ledger.begin("k1", { runId: "r", method: "agent" });
    expect(fsync).toHaveBeenCalledTimes(1);
    expect(lines(ledger.file).at(-1)).toMatchObject({ op: "begin", key: "k1", runId: "r" });
  });

  it("complete records the outcome once; the first outcome wins", () => {
    const ledger = open(makeStateDir());
    ledger.begin("k1", { runId: "r", method: "agent" });
    expect(ledger.complete("k1", { status: "ok", summary: "done", result: { text: "hi" } })).toMatchObject({ status: "ok", summary: "done", result: { text: "hi" } });
    expect(ledger.complete("k1", { status: "error" })!.status).toBe("ok");
    expect(ledger.get("k1")).toMatchObject({ status: "ok", result: { text: "hi" } });
    expect(ledger.complete("unknown", { status: "ok" })).toBeUndefined();
  });

  it("keeps results up to 64 KB and flags larger ones instead of storing them", () => {
    const ledger = open(makeStateDir());
    ledger.begin("big", { runId: "r", method: "agent" });
    const record = ledger.complete("big", { status: "ok", result: { blob: "x".repeat(MAX_RESULT_BYTES) } })!;
    expect(record.result).toBeUndefined();
    expect(record.resultOmitted).toBe(true);
  });

  it("after a restart, completed records answer duplicates and unfinished ones are marked interrupted", () => {
    const state = makeStateDir();
    const a = open(state);
    a.begin("done", { runId: "r1", method: "agent" });
    a.complete("done", { status: "ok", summary: "fine" });
    a.begin("died", { runId: "r2", sessionKey: "agent:main:main", method: "chat.send" });
    a.close(); // the process dies here without completing "died"

    const b = open(state);
    expect(b.get("done")).toMatchObject({ status: "ok", summary: "fine" });
    expect(b.begin("died", { runId: "r3", method: "chat.send" })).toMatchObject({ fresh: false, record: { runId: "r2", status: "interrupted" } });
    // Compacted on open: one record line per key.
    expect(lines(b.file).map((l) => [l.op, l.key, l.status])).toEqual([
      ["record", "done", "ok"],
      ["record", "died", "interrupted"],
    ]);
  });

  it("keys merged into a run are recorded in its begin line, end with it, and survive a restart and its compaction", () => {
    const state = makeStateDir();
    const a = open(state, { now: () => 1_000 });
    a.begin("older", { runId: "older", method: "channel" });
    a.begin("m3", { runId: "m3", sessionKey: "agent:main:main", method: "channel", merged: ["m1", "m2", "m1", "older"] });
    // One line: a crash keeps the merged keys with the run's own, or none of them.
    expect(lines(a.file).at(-1)).toEqual({ op: "begin", key: "m3", runId: "m3", sessionKey: "agent:main:main", method: "channel", at: 1_000, merged: ["m1", "m2"] });
    expect(a.get("m1")).toEqual({ key: "m1", runId: "m3", sessionKey: "agent:main:main", method: "channel", status: "in_flight", startedAt: 1_000 });
    expect(a.begin("m2", { runId: "m2", method: "channel" })).toMatchObject({ fresh: false, record: { runId: "m3" } });
    a.complete("m3", { status: "ok", summary: "one answer" });
    expect(a.get("m1")).toMatchObject({ runId: "m3", status: "ok", summary: "one answer" });
    // A key recorded before keeps its own record.
    expect(a.get("older")).toMatchObject({ runId: "older", status: "in_flight" });
    a.close();

    const b = open(state, { now: () => 2_000 });
    expect(["m1", "m2", "m3"].map((k) => b.get(k)?.status)).toEqual(["ok", "ok", "ok"]);
    expect(b.get("older")?.status).toBe("interrupted");
    b.close();
    const c = open(state, { now: () => 3_000 });
    expect(c.get("m2")).toMatchObject({ runId: "m3", status: "ok" });
    expect(c.get("m3")).toMatchObject({ merged: ["m1", "m2"], status: "ok" });
  });

  it("keys merged into a run that a crash cut off read back as interrupted, never as free", () => {
    const state = makeStateDir();
    const a = open(state);
    a.begin("m2", { runId: "m2", method: "channel", merged: ["m1"] });
    a.close();
    const b = open(state);
    expect(b.begin("m1", { runId: "m1", method: "channel" })).toMatchObject({ fresh: false, record: { runId: "m2", status: "interrupted" } });
  });

  it("skips a torn last line", () => {
    const state = makeStateDir();
    const a = open(state);
    a.begin("k1", { runId: "r1", method: "agent" });
    a.close();
    fs.appendFileSync(a.file, '{"op":"begin","key":"k2","ru');
    const b = open(state);
    expect(b.get("k1")).toBeDefined();
    expect(b.get("k2")).toBeUndefined();
    expect(b.begin("k2", { runId: "r2", method: "agent" }).fresh).toBe(true);
  });

  it("forgets records after 24 h (in memory and when compacting)", () => {
    const state = makeStateDir();
    let now = 0;
    const a = open(state, { now: () => now });
    a.begin("old", { runId: "r1", method: "agent" });
    now = 24 * 60 * 60 * 1000 + 1;
    expect(a.get("old")).toBeUndefined();
    expect(a.begin("old", { runId: "r2", method: "agent" })).toMatchObject({ fresh: true, record: { runId: "r2" } });
    a.close();

    now = 2 * 24 * 60 * 60 * 1000 + 2;
    const b = open(state, { now: () => now });
    expect(b.size).toBe(0);
    expect(fs.readFileSync(b.file, "utf8")).toBe("");
  });

  it("keeps at most maxRecords (oldest dropped) and compacts the file as it grows", () => {
    const state = makeStateDir();
    let now = 0;
    const ledger = open(state, { now: () => now++, maxRecords: 5 });
    for (let i = 0; i < 12; i += 1) {
      ledger.begin(`k${i}`, { runId: `r${i}`, method: "agent" });
      ledger.complete(`k${i}`, { status: "ok" });
    }
    expect(ledger.size).toBe(5);
    expect(ledger.get("k0")).toBeUndefined();
    expect(ledger.get("k11")).toBeDefined();
    expect(lines(ledger.file).length).toBeLessThanOrEqual(5 + 5 + 1);
    ledger.close();
    const reopened = open(state, { now: () => now, maxRecords: 5 });
    expect(lines(reopened.file).map((l) => l.key)).toEqual(["k7", "k8", "k9", "k10", "k11"]);
  });

  it("refuses empty and oversized keys", () => {
    const ledger = open(makeStateDir());
    expect(() => ledger.begin("", { runId: "r", method: "agent" })).toThrow(/non-empty/);
    expect(() => ledger.begin("k".repeat(2000), { runId: "r", method: "agent" })).toThrow(/longer/);
  });
});
