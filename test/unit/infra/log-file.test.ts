import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LogFile } from "../../../src/infra/log-file.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "log-file-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("LogFile", () => {
  it("appends lines to a file created 0600, narrowing an existing wider one", () => {
    const file = path.join(tempDir(), "gateway.log");
    fs.writeFileSync(file, "old\n", { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const log = new LogFile(file);
    log.write('{"a":1}\n');
    log.write('{"a":2}\n');
    log.close();
    expect(fs.readFileSync(file, "utf8")).toBe('old\n{"a":1}\n{"a":2}\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("rotates to <file>.1 past maxFileBytes, keeping every line in one of the two", () => {
    const file = path.join(tempDir(), "gateway.log");
    const log = new LogFile(file, 100);
    const lines = Array.from({ length: 12 }, (_, i) => `{"line":${i},"pad":"xxxxxxxxxx"}\n`);
    for (const line of lines) log.write(line);
    log.close();
    const current = fs.readFileSync(file, "utf8");
    const previous = fs.readFileSync(`${file}.1`, "utf8");
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(100);
    expect(Buffer.byteLength(previous)).toBeLessThanOrEqual(100);
    expect(previous + current).toBe(lines.slice(-(previous + current).split("\n").length + 1).join(""));
    expect(log.health().rotations).toBe(3); // 31-byte lines, three to a 100-byte file
    expect(fs.statSync(`${file}.1`).mode & 0o777).toBe(0o600);
  });

  it("a full disk drops and counts lines, never throws", () => {
    const log = new LogFile("/dev/full");
    expect(() => log.write("one\n")).not.toThrow();
    log.write("two\n");
    expect(log.health()).toMatchObject({ droppedLines: 2, lastError: { code: "ENOSPC" } });
  });

  it("resumes by itself when writing works again", () => {
    const dir = path.join(tempDir(), "logs");
    const file = path.join(dir, "gateway.log");
    const log = new LogFile(file);
    log.write("lost\n");
    expect(log.health()).toMatchObject({ droppedLines: 1, lastError: { code: "ENOENT" } });
    fs.mkdirSync(dir);
    log.write("kept\n");
    log.close();
    expect(fs.readFileSync(file, "utf8")).toBe("kept\n");
    expect(log.health().droppedLines).toBe(1);
  });
});
