import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLogTail } from "../../../src/infra/log-tail.js";

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "log-tail-")), "gateway.log");

describe("readLogTail", () => {
  it("returns the last lines, then only what was appended after the cursor", () => {
    const file = tempFile();
    fs.writeFileSync(file, "one\ntwo\nthree\n");
    const first = readLogTail(file, { limit: 2 });
    expect(first.lines).toEqual(["two", "three"]);
    expect(first.truncated).toBe(true);
    fs.appendFileSync(file, "four\nfive (half");
    const next = readLogTail(file, { cursor: first.cursor });
    expect(next.lines).toEqual(["four"]);
    fs.appendFileSync(file, " done)\n");
    expect(readLogTail(file, { cursor: next.cursor }).lines).toEqual(["five (half done)"]);
  });

  it("pages forward with limit and says more is there", () => {
    const file = tempFile();
    fs.writeFileSync(file, "a\nb\nc\n");
    const page = readLogTail(file, { cursor: 0, limit: 2 });
    expect(page).toMatchObject({ lines: ["a", "b"], truncated: true });
    expect(readLogTail(file, { cursor: page.cursor }).lines).toEqual(["c"]);
  });

  it("starts over with reset when the file is shorter than the cursor (rotated)", () => {
    const file = tempFile();
    fs.writeFileSync(file, "old line 1\nold line 2\n");
    const cursor = readLogTail(file).cursor;
    fs.writeFileSync(file, "new\n");
    expect(readLogTail(file, { cursor })).toMatchObject({ lines: ["new"], reset: true });
  });

  it("drops the partial first line when only the end of a big file is read", () => {
    const file = tempFile();
    fs.writeFileSync(file, `${"x".repeat(100)}\nlast\n`);
    expect(readLogTail(file, { maxBytes: 20 }).lines).toEqual(["last"]);
  });

  it("answers an empty tail for a file not written yet", () => {
    expect(readLogTail(tempFile())).toMatchObject({ lines: [], cursor: 0, size: 0 });
  });
});
