import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool } from "../../../src/agents/tools/read.js";
import { errorOf, makeContext, makeWorkspace, neverAborted, textOf } from "./helpers.js";
import { ONE_PIXEL_PNG } from "../../helpers/tiny-png.js";

const read = createReadTool();
const PNG_1x1 = ONE_PIXEL_PNG;

describe("read", () => {
  it("returns a text file whole", async () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "notes.md"), "one\ntwo\nthree\n");
    const result = await read.execute({ path: "notes.md" }, makeContext(workspace), neverAborted);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("one\ntwo\nthree");
    expect(result.details).toMatchObject({ path: "notes.md", totalLines: 3, truncated: false });
  });

  it("returns a line window and reports the total when it does not show everything", async () => {
    const { workspace } = makeWorkspace();
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    fs.writeFileSync(path.join(workspace, "ten.txt"), `${lines.join("\n")}\n`);
    const result = await read.execute({ path: "ten.txt", offset: 3, limit: 2 }, makeContext(workspace), neverAborted);
    expect(textOf(result)).toBe("line 3\nline 4\n\n[Lines 3-4 of 10. Use offset=5 to continue.]");
    const past = await read.execute({ path: "ten.txt", offset: 11 }, makeContext(workspace), neverAborted);
    expect(errorOf(past)).toMatchObject({ error: "OFFSET_OUT_OF_RANGE", suggestion: "Use an offset between 1 and 10." });
  });

  it("says when a file is empty instead of returning nothing", async () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "empty.txt"), "");
    expect(textOf(await read.execute({ path: "empty.txt" }, makeContext(workspace), neverAborted))).toBe("(the file is empty)");
  });

  it("refuses binary files and directories, and reports missing files, with structured errors", async () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "blob.bin"), Buffer.from([0x41, 0x00, 0x42]));
    fs.mkdirSync(path.join(workspace, "dir"));
    const ctx = makeContext(workspace);
    expect(errorOf(await read.execute({ path: "blob.bin" }, ctx, neverAborted)).error).toBe("BINARY_FILE");
    const directory = errorOf(await read.execute({ path: "dir" }, ctx, neverAborted));
    expect(directory.error).toBe("IS_A_DIRECTORY");
    expect(directory.suggestion).toContain("ls");
    expect(errorOf(await read.execute({ path: "missing.txt" }, ctx, neverAborted)).error).toBe("FILE_NOT_FOUND");
  });

  it("refuses a FIFO instead of blocking on it", async () => {
    const { workspace } = makeWorkspace();
    execFileSync("mkfifo", [path.join(workspace, "pipe")]);
    expect(errorOf(await read.execute({ path: "pipe" }, makeContext(workspace), neverAborted)).error).toBe("NOT_A_REGULAR_FILE");
  });

  it("returns images as image blocks, by content", async () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "dot.png"), PNG_1x1);
    const result = await read.execute({ path: "dot.png" }, makeContext(workspace), neverAborted);
    expect(result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG_1x1.toString("base64") });
  });

  it("refuses images of 5 MB or more", async () => {
    const { workspace } = makeWorkspace();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    PNG_1x1.copy(big);
    fs.writeFileSync(path.join(workspace, "big.png"), big);
    expect(errorOf(await read.execute({ path: "big.png" }, makeContext(workspace), neverAborted)).error).toBe("IMAGE_TOO_LARGE");
  });

  it("cannot read outside the workspace: .., absolute, symlinked file, symlinked parent, long path, NUL", async () => {
    const { workspace, outside } = makeWorkspace();
    fs.writeFileSync(path.join(outside, "secret.txt"), "TOP SECRET");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "innocent.txt"));
    fs.symlinkSync(outside, path.join(workspace, "docs"));
    const ctx = makeContext(workspace);
    const attempts = ["../../etc/passwd", "/etc/passwd", "innocent.txt", "docs/secret.txt", `${"x".repeat(5000)}.txt`, "a\0.txt"];
    for (const attempt of attempts) {
      const result = await read.execute({ path: attempt }, ctx, neverAborted);
      expect(textOf(result)).not.toContain("TOP SECRET");
      expect(["PATH_OUTSIDE_WORKSPACE", "PATH_INVALID"]).toContain(errorOf(result).error);
    }
  });
});
