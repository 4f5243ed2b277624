import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool } from "../../../src/agents/tools/write.js";
import { errorOf, makeContext, makeWorkspace, neverAborted, textOf } from "./helpers.js";

const write = createWriteTool();

describe("write", () => {
  it("creates parent directories and reports the bytes written", async () => {
    const { workspace } = makeWorkspace();
    const result = await write.execute({ path: "a/b/c.txt", content: "héllo\n" }, makeContext(workspace), neverAborted);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Created a/b/c.txt (7 bytes written).");
    expect(fs.readFileSync(path.join(workspace, "a/b/c.txt"), "utf8")).toBe("héllo\n");
    const again = await write.execute({ path: "a/b/c.txt", content: "x" }, makeContext(workspace), neverAborted);
    expect(textOf(again)).toBe("Overwrote a/b/c.txt (1 byte written).");
  });

  it("refuses to write onto a directory or a FIFO", async () => {
    const { workspace } = makeWorkspace();
    fs.mkdirSync(path.join(workspace, "dir"));
    execFileSync("mkfifo", [path.join(workspace, "pipe")]);
    expect(errorOf(await write.execute({ path: "dir", content: "x" }, makeContext(workspace), neverAborted)).error).toBe("IS_A_DIRECTORY");
    expect(errorOf(await write.execute({ path: "pipe", content: "x" }, makeContext(workspace), neverAborted)).error).toBe("NOT_A_REGULAR_FILE");
  });

  it("cannot write outside the workspace, including through symlinks", async () => {
    const { workspace, outside } = makeWorkspace();
    fs.writeFileSync(path.join(outside, "target.txt"), "original");
    fs.symlinkSync(path.join(outside, "target.txt"), path.join(workspace, "link.txt"));
    fs.symlinkSync(outside, path.join(workspace, "linkdir"));
    fs.symlinkSync(path.join(outside, "created-by-attack.txt"), path.join(workspace, "dangling.txt"));
    const ctx = makeContext(workspace);
    const attempts = ["../escape.txt", path.join(outside, "abs.txt"), "link.txt", "linkdir/new.txt", "linkdir/sub/new.txt", "dangling.txt", `${"y".repeat(5000)}`, "nul\0.txt"];
    for (const attempt of attempts) {
      const result = await write.execute({ path: attempt, content: "pwned" }, ctx, neverAborted);
      expect(["PATH_OUTSIDE_WORKSPACE", "PATH_INVALID"]).toContain(errorOf(result).error);
    }
    expect(fs.readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("original");
    expect(fs.readdirSync(outside).sort()).toEqual(["target.txt"]);
    expect(fs.existsSync(path.join(path.dirname(workspace), "escape.txt"))).toBe(false);
  });
});
