import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppendFiles } from "../../../src/infra/append-files.js";

let dir: string;
let files: AppendFiles;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "append-files-"));
  files = new AppendFiles(2);
});
afterEach(() => {
  files.closeAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bytes = (text: string) => Buffer.from(text, "utf8");
const openFds = () =>
  fs.readdirSync("/proc/self/fd").map((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return "";
    }
  });
const fdsOn = (file: string) => openFds().filter((target) => target.startsWith(file)).length;

function touch(name: string, text = ""): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe("AppendFiles", () => {
  it("knows a file's size from its last presence check plus its own appends, and forgets it with the file", () => {
    const file = touch("sized.jsonl", "head\n");
    expect(files.sizeOf(file)).toBeUndefined();
    expect(files.presence(file)).toBe("file");
    files.append(file, bytes("one\n"));
    files.append(file, bytes("twenty\n"));
    expect(files.sizeOf(file)).toBe(fs.statSync(file).size);
    fs.appendFileSync(file, "written elsewhere\n");
    expect(files.sizeOf(file)).toBe(fs.statSync(file).size - "written elsewhere\n".length);
    expect(files.presence(file)).toBe("file");
    expect(files.sizeOf(file)).toBe(fs.statSync(file).size);
    files.forget(file);
    expect(files.sizeOf(file)).toBeUndefined();
    fs.rmSync(file);
    expect(files.presence(file)).toBe("missing");
    expect(files.sizeOf(file)).toBeUndefined();
  });

  it("appends to the end and keeps one descriptor open between appends", async () => {
    const file = touch("a.jsonl", "head\n");
    files.append(file, bytes("one\n"));
    files.append(file, bytes("two\n"));
    await files.sync(file);
    expect(fs.readFileSync(file, "utf8")).toBe("head\none\ntwo\n");
    expect(fdsOn(file)).toBe(1);
  });

  it("never creates a missing file", () => {
    expect(files.exists(path.join(dir, "missing.jsonl"))).toBe(false);
    expect(() => files.append(path.join(dir, "missing.jsonl"), bytes("x"))).toThrow(/ENOENT/);
    expect(fs.existsSync(path.join(dir, "missing.jsonl"))).toBe(false);
  });

  it("follows the path when the file is replaced (rename over it), never writing into the old one", () => {
    const file = touch("r.jsonl", "old\n");
    files.append(file, bytes("a\n"));
    const replacement = touch("r.jsonl.tmp", "new\n");
    fs.renameSync(replacement, file);
    expect(files.exists(file)).toBe(true);
    files.append(file, bytes("b\n"));
    expect(fs.readFileSync(file, "utf8")).toBe("new\nb\n");
    expect(fdsOn(file)).toBe(1);
  });

  it("follows the path when the file is deleted and created again", () => {
    const file = touch("d.jsonl", "v1\n");
    files.append(file, bytes("a\n"));
    fs.rmSync(file);
    touch("d.jsonl", "v2\n");
    files.append(file, bytes("b\n"));
    expect(fs.readFileSync(file, "utf8")).toBe("v2\nb\n");
  });

  it("closes the least recently used descriptors beyond its limit", async () => {
    const [a, b, c] = [touch("1"), touch("2"), touch("3")];
    files.append(a, bytes("x"));
    files.append(b, bytes("x"));
    files.append(a, bytes("y")); // a is now the most recent
    files.append(c, bytes("x")); // evicts b
    await new Promise((r) => setTimeout(r, 20)); // closes are asynchronous
    expect([fdsOn(a), fdsOn(b), fdsOn(c)]).toEqual([1, 0, 1]);
    // A sync for a file whose descriptor was closed still makes it durable (opens one for the fsync).
    await expect(files.sync(b)).resolves.toBeUndefined();
    expect(fs.readFileSync(a, "utf8")).toBe("xy");
  });

  it("shares one fsync between callers of the same moment and queues one behind a running fsync", async () => {
    const file = touch("g.jsonl");
    files.append(file, bytes("1"));
    const first = files.sync(file);
    files.append(file, bytes("2"));
    const second = files.sync(file);
    const third = files.sync(file);
    expect(third).toBe(second); // both wait for the fsync that starts after the running one
    expect(second).not.toBe(first);
    await Promise.all([first, second, third]);
  });

  it("forget() and closeAll() close descriptors, deferring a close until its fsync finishes", async () => {
    const [a, b] = [touch("fa"), touch("fb")];
    files.append(a, bytes("x"));
    files.append(b, bytes("x"));
    const syncing = files.sync(a);
    files.forget(a);
    files.closeAll();
    await syncing;
    await new Promise((r) => setTimeout(r, 20));
    expect([fdsOn(a), fdsOn(b)]).toEqual([0, 0]);
  });
});
