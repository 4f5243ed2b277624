import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KeyedJsonLinesLog, type KeyedLogSchema } from "../../../src/infra/keyed-json-lines-log.js";

/** A counter per key: `{k, n}` sets it, `{k, done: true}` marks it finished; finished keys are pruned. */
type Line = { k: string; n: number } | { k: string; done: true };
interface Counter {
  n: number;
  done: boolean;
}

const schema: KeyedLogSchema<Counter, Line> = {
  replay(entries, value) {
    const line = value as Partial<{ k: unknown; n: unknown; done: unknown }>;
    if (typeof line?.k !== "string") return;
    if (typeof line.n === "number") entries.set(line.k, { n: line.n, done: false });
    else if (line.done === true) {
      const entry = entries.get(line.k);
      if (entry) entry.done = true;
    }
  },
  prune(entries) {
    for (const [key, entry] of entries) if (entry.done) entries.delete(key);
  },
  snapshot: (entry, key) => ({ k: key, n: entry.n }),
};

let dir: string;
let file: string;
const opened: KeyedJsonLinesLog<Counter, Line>[] = [];
const open = (minLines = 10) => {
  const log = new KeyedJsonLinesLog(file, schema, { factor: 2, minLines });
  opened.push(log);
  return log;
};
const fileLines = () =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

/** Appends a change, applies it, then lets the log compact: the order every owner follows. */
function set(log: KeyedJsonLinesLog<Counter, Line>, key: string, n: number): void {
  log.append({ k: key, n });
  log.entries.set(key, { n, done: false });
  log.compactIfDue();
}
function finish(log: KeyedJsonLinesLog<Counter, Line>, key: string): void {
  log.append({ k: key, done: true });
  log.entries.get(key)!.done = true;
  log.compactIfDue();
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "keyed-log-"));
  file = path.join(dir, "state", "log.jsonl");
});
afterEach(() => {
  for (const log of opened.splice(0)) log.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("KeyedJsonLinesLog", () => {
  it("leaves a missing file missing until the first append", async () => {
    const log = open();
    expect(log.entries.size).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    set(log, "a", 1);
    await log.whenDurable();
    expect(fileLines()).toEqual([{ k: "a", n: 1 }]);
  });

  it("replays the file in order, then compacts it at open to one line per kept entry", () => {
    const first = open();
    set(first, "a", 1);
    set(first, "b", 1);
    set(first, "a", 2);
    finish(first, "b");
    first.close();

    const reopened = open();
    expect([...reopened.entries]).toEqual([["a", { n: 2, done: false }]]);
    expect(fileLines()).toEqual([{ k: "a", n: 2 }]);
  });

  it("drops a torn last line at open, so the next append starts on a line of its own", () => {
    const first = open();
    set(first, "a", 1);
    first.close();
    fs.appendFileSync(file, '{"k":"b","n"');

    const reopened = open();
    expect([...reopened.entries.keys()]).toEqual(["a"]);
    set(reopened, "c", 3);
    expect(fileLines()).toEqual([
      { k: "a", n: 1 },
      { k: "c", n: 3 },
    ]);
  });

  it("runs recover after replay and before the compaction at open", () => {
    const first = open();
    set(first, "a", 1);
    first.close();
    const recovering = new KeyedJsonLinesLog(file, { ...schema, recover: (entries) => entries.set("recovered", { n: 0, done: false }) }, { factor: 2, minLines: 10 });
    opened.push(recovering);
    expect(fileLines()).toEqual([
      { k: "a", n: 1 },
      { k: "recovered", n: 0 },
    ]);
  });

  it("compacts once the file holds more than factor × max(kept entries, minLines) lines", () => {
    const log = open(5);
    // Threshold 2 × max(0, 5) = 10 lines: the 11th line triggers a compaction.
    for (let i = 0; i < 10; i += 1) set(log, "same", i);
    expect(fileLines()).toHaveLength(10);
    set(log, "same", 10);
    expect(fileLines()).toEqual([{ k: "same", n: 10 }]);

    // With more entries kept than minLines, the threshold grows with them.
    for (let i = 0; i < 8; i += 1) set(log, `k${i}`, i);
    expect(fileLines()).toHaveLength(9);
    finish(log, "k0");
    expect(fileLines()).toHaveLength(10);
    finish(log, "k1");
    expect(fileLines()).toHaveLength(7);
    // Now 2 × 7 = 14 lines fit before the next compaction.
    for (let i = 2; i < 8; i += 1) finish(log, `k${i}`);
    set(log, "k8", 8);
    expect(fileLines()).toHaveLength(14);
    set(log, "k9", 9);
    expect(fileLines()).toEqual([
      { k: "same", n: 10 },
      { k: "k8", n: 8 },
      { k: "k9", n: 9 },
    ]);
  });
});
