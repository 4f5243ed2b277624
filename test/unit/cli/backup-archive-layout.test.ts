import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupTimestamp, entryPathInRoot, symlinkStaysInside } from "../../../src/cli/backup/archive-layout.js";
import { completeLinesLength } from "../../../src/cli/backup/jsonl-complete-lines.js";

describe("backup archive entry names", () => {
  it("are relative to the one root folder, with no absolute path, traversal or backslash", () => {
    expect(entryPathInRoot("r/payload/state/a.json", "r")).toEqual({ path: "payload/state/a.json" });
    expect(entryPathInRoot("r/payload/state/", "r")).toEqual({ path: "payload/state" });
    expect(entryPathInRoot("r/../x", "r")).toEqual({ unsafe: "path traversal in entry: r/../x" });
    expect(entryPathInRoot("r/a/./b", "r")).toEqual({ unsafe: "path traversal in entry: r/a/./b" });
    expect(entryPathInRoot("/etc/passwd", "r")).toEqual({ unsafe: "absolute entry path: /etc/passwd" });
    expect(entryPathInRoot("C:/x", "r")).toEqual({ unsafe: "absolute entry path: C:/x" });
    expect(entryPathInRoot("r\\..\\x", "r")).toEqual({ unsafe: "entry path with a backslash: r\\..\\x" });
    expect(entryPathInRoot("other/manifest.json", "r")).toEqual({ unsafe: "entry outside the archive root r/: other/manifest.json" });
  });
});

describe("backup symbolic links", () => {
  const asset = "payload/workspaces/main";
  it("stay when relative, with their `..` first and not above the asset", () => {
    expect(symlinkStaysInside(`${asset}/a/link`, "../b.md", asset)).toBe(true);
    expect(symlinkStaysInside(`${asset}/a/link`, "c/d.md", asset)).toBe(true);
    expect(symlinkStaysInside(`${asset}/a/b/link`, "../../x", asset)).toBe(true);
    expect(symlinkStaysInside(`${asset}/link`, "x", asset)).toBe(true);
  });
  it("are refused when absolute, climbing out, or resolving `..` through a name", () => {
    expect(symlinkStaysInside(`${asset}/a/link`, "/etc/passwd", asset)).toBe(false);
    expect(symlinkStaysInside(`${asset}/link`, "../x", asset)).toBe(false);
    expect(symlinkStaysInside(`${asset}/a/link`, "../../main/x", asset)).toBe(false);
    expect(symlinkStaysInside(`${asset}/a/link`, "b/../../../x", asset)).toBe(false);
    expect(symlinkStaysInside(`${asset}/a/link`, "b/../c", asset)).toBe(false);
    expect(symlinkStaysInside(asset, "x", asset)).toBe(false);
    expect(symlinkStaysInside(`${asset}/a/link`, "..\\x", asset)).toBe(false);
  });
});

describe("backup JSONL capture", () => {
  it("takes a file up to its last complete line", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-jsonl-"));
    const file = path.join(dir, "t.jsonl");
    const cases: [string, number][] = [
      ['{"a":1}\n{"b":2}\n{"c"', 16],
      ['{"a":1}\n', 8],
      ['{"a"', 0],
      ["", 0],
      [`${"x".repeat(70_000)}\n${"y".repeat(70_000)}`, 70_001],
    ];
    try {
      for (const [content, expected] of cases) {
        fs.writeFileSync(file, content);
        const fd = fs.openSync(file, "r");
        try {
          expect(completeLinesLength(fd, fs.fstatSync(fd).size)).toBe(expected);
        } finally {
          fs.closeSync(fd);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("backup file names", () => {
  it("carry the local time and its UTC offset, safe in a file name", () => {
    expect(backupTimestamp(new Date("2026-03-09T00:00:00.000Z"))).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}[+-]\d\d-\d\d$/);
  });
});
