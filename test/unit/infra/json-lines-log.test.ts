import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonLinesLog } from "../../../src/infra/json-lines-log.js";

let dir: string;
let log: JsonLinesLog;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "json-lines-log-"));
  log = new JsonLinesLog(path.join(dir, "sub", "log.jsonl"));
});
afterEach(() => {
  log.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("JsonLinesLog", () => {
  it("has nothing to sync before its first append, even with no file yet", async () => {
    // A gateway whose turns all come over HTTP never writes its idempotency ledger.
    await expect(log.whenDurable()).resolves.toBeUndefined();
    expect(fs.existsSync(log.file)).toBe(false);
  });

  it("appends lines that read back in order, and syncs them", async () => {
    log.append({ n: 1 });
    log.append({ n: 2 });
    await expect(log.whenDurable()).resolves.toBeUndefined();
    expect(JsonLinesLog.read(log.file)).toEqual({ values: [{ n: 1 }, { n: 2 }], skippedLines: 0 });
    expect(log.lineCount).toBe(2);
  });

  it("skips a torn last line on read, and a rewrite replaces it", () => {
    log.append({ n: 1 });
    fs.appendFileSync(log.file, '{"n":');
    expect(JsonLinesLog.read(log.file)).toEqual({ values: [{ n: 1 }], skippedLines: 1 });
    log.rewrite([{ n: 1 }]);
    log.append({ n: 2 });
    expect(JsonLinesLog.read(log.file)).toEqual({ values: [{ n: 1 }, { n: 2 }], skippedLines: 0 });
  });
});
