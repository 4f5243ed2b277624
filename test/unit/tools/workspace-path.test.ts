import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../../src/agents/tools/edit.js";
import { createReadTool } from "../../../src/agents/tools/read.js";
import { resolveWorkspacePath } from "../../../src/agents/tools/workspace-path.js";
import { createWriteTool } from "../../../src/agents/tools/write.js";
import { makeContext, makeWorkspace, neverAborted } from "./helpers.js";

function refusal(workspace: string, requested: unknown): { error: string; message: string; suggestion: string } {
  const resolved = resolveWorkspacePath(workspace, requested);
  if (resolved.ok) throw new Error(`expected a refusal for ${String(requested).slice(0, 40)}, got ${resolved.absolute}`);
  expect(resolved.result.isError).toBe(true);
  const block = resolved.result.content[0];
  return JSON.parse(block?.type === "text" ? block.text : "{}");
}

describe("resolveWorkspacePath", () => {
  it("resolves relative paths, absolute paths inside, and not-yet-existing files", () => {
    const { workspace } = makeWorkspace();
    fs.mkdirSync(path.join(workspace, "src"));
    expect(resolveWorkspacePath(workspace, "src/a.ts")).toEqual({ ok: true, absolute: path.join(workspace, "src/a.ts"), relative: "src/a.ts" });
    expect(resolveWorkspacePath(workspace, path.join(workspace, "src"))).toMatchObject({ ok: true, relative: "src" });
    expect(resolveWorkspacePath(workspace, "new/deep/file.md")).toMatchObject({ ok: true, relative: "new/deep/file.md" });
    expect(resolveWorkspacePath(workspace, ".")).toMatchObject({ ok: true, absolute: workspace, relative: "." });
    expect(resolveWorkspacePath(workspace, "src/../b.txt")).toMatchObject({ ok: true, relative: "b.txt" });
  });

  it("refuses .. escapes and absolute paths outside, naming the workspace root in the suggestion", () => {
    const { workspace } = makeWorkspace();
    const outside = refusal(workspace, "../../etc/passwd");
    expect(outside.error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(outside.suggestion).toContain(workspace);
    expect(outside.suggestion).toContain("inside the workspace");
    expect(refusal(workspace, "/etc/passwd").error).toBe("PATH_OUTSIDE_WORKSPACE");
    // A sibling whose name starts with the workspace's name is still outside.
    expect(refusal(workspace, `${workspace}-evil/x`).error).toBe("PATH_OUTSIDE_WORKSPACE");
  });

  it("refuses symlinks that leave the workspace: file, parent directory, dangling link", () => {
    const { workspace, outside } = makeWorkspace();
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
    fs.symlinkSync(outside, path.join(workspace, "linkdir"));
    fs.symlinkSync(path.join(outside, "not-there.txt"), path.join(workspace, "dangling.txt"));
    expect(refusal(workspace, "link.txt").error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(refusal(workspace, "linkdir/secret.txt").error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(refusal(workspace, "linkdir/new/file.txt").error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(refusal(workspace, "dangling.txt").error).toBe("PATH_OUTSIDE_WORKSPACE");
  });

  it("refuses a regular file with more than one hard link: read, write and edit could reach a file outside", async () => {
    const { workspace, outside } = makeWorkspace();
    fs.writeFileSync(path.join(outside, "secret.txt"), "outside secret");
    fs.linkSync(path.join(outside, "secret.txt"), path.join(workspace, "innocent.txt"));
    const refused = refusal(workspace, "innocent.txt");
    expect(refused.error).toBe("PATH_HARD_LINKED");
    expect(refused.message).toBe('"innocent.txt" has 2 hard links: its content may be a file outside the workspace, so the file tools neither read nor write it.');
    const ctx = makeContext(workspace);
    const read = await createReadTool().execute({ path: "innocent.txt" }, ctx, neverAborted);
    expect(read.isError).toBe(true);
    expect(JSON.stringify(read.content)).not.toContain("outside secret");
    expect((await createWriteTool().execute({ path: "innocent.txt", content: "pwned" }, ctx, neverAborted)).isError).toBe(true);
    expect((await createEditTool().execute({ path: "innocent.txt", oldText: "outside", newText: "pwned" }, ctx, neverAborted)).isError).toBe(true);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret");
    // A file with one link, and directories (always several links), are fine.
    fs.writeFileSync(path.join(workspace, "plain.txt"), "x");
    expect(resolveWorkspacePath(workspace, "plain.txt")).toMatchObject({ ok: true });
    expect(resolveWorkspacePath(workspace, ".")).toMatchObject({ ok: true });
  });

  it("follows symlinks that stay inside the workspace to their real target", () => {
    const { workspace } = makeWorkspace();
    fs.mkdirSync(path.join(workspace, "real"));
    fs.symlinkSync(path.join(workspace, "real"), path.join(workspace, "alias"));
    expect(resolveWorkspacePath(workspace, "alias/x.txt")).toMatchObject({ ok: true, relative: "real/x.txt" });
  });

  it("refuses NUL bytes, overlong and empty paths, and symlink loops as invalid", () => {
    const { workspace } = makeWorkspace();
    expect(refusal(workspace, "a\0b").error).toBe("PATH_INVALID");
    expect(refusal(workspace, "a/".repeat(2500)).error).toBe("PATH_INVALID");
    expect(refusal(workspace, "").error).toBe("PATH_INVALID");
    expect(refusal(workspace, 42).error).toBe("PATH_INVALID");
    fs.symlinkSync(path.join(workspace, "loop-b"), path.join(workspace, "loop-a"));
    fs.symlinkSync(path.join(workspace, "loop-a"), path.join(workspace, "loop-b"));
    expect(refusal(workspace, "loop-a/x").error).toBe("PATH_INVALID");
  });
});
