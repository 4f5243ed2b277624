import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "../../../src/agents/tools/apply-patch.js";
import { parsePatch } from "../../../src/agents/tools/patch-parser.js";
import { errorOf, makeContext, makeWorkspace, neverAborted, textOf } from "./helpers.js";

const applyPatch = createApplyPatchTool();

function workspaceWith(files: Record<string, string>): string {
  const { workspace } = makeWorkspace();
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workspace, name)), { recursive: true });
    fs.writeFileSync(path.join(workspace, name), content);
  }
  return workspace;
}

function snapshot(workspace: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(workspace, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(workspace, full)] = fs.readFileSync(full, "utf8");
  }
  return files;
}

const patch = (...lines: string[]): string => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("apply_patch", () => {
  it("adds, updates, deletes and moves files in one patch", async () => {
    const workspace = workspaceWith({
      "src/main.ts": "import x from './x';\n\nfunction main() {\n  console.log('hi');\n  return 1;\n}\n",
      "old.txt": "bye\n",
      "rename/me.txt": "line 1\nline 2\n",
    });
    const result = await applyPatch.execute(
      {
        input: patch(
          "*** Add File: docs/new.md",
          "+# Title",
          "+",
          "+body",
          "*** Update File: src/main.ts",
          "@@ function main() {",
          "-  console.log('hi');",
          "+  console.log('hello');",
          "   return 1;",
          "*** Delete File: old.txt",
          "*** Update File: rename/me.txt",
          "*** Move to: renamed/you.txt",
          "@@",
          " line 1",
          "-line 2",
          "+line two",
          "*** End of File",
        ),
      },
      makeContext(workspace),
      neverAborted,
    );
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Applied patch:\nA docs/new.md\nM src/main.ts\nD old.txt\nR rename/me.txt -> renamed/you.txt");
    expect(snapshot(workspace)).toEqual({
      "docs/new.md": "# Title\n\nbody\n",
      "src/main.ts": "import x from './x';\n\nfunction main() {\n  console.log('hello');\n  return 1;\n}\n",
      "renamed/you.txt": "line 1\nline two\n",
    });
  });

  it("applies several hunks to one file, in order, tolerating trailing-whitespace differences", async () => {
    const workspace = workspaceWith({ "list.txt": "a\nb  \nc\nd\ne\nf\n" });
    const result = await applyPatch.execute({ input: patch("*** Update File: list.txt", "@@", "-b", "+B", "@@", " e", "-f", "+F") }, makeContext(workspace), neverAborted);
    expect(result.isError).toBeUndefined();
    expect(fs.readFileSync(path.join(workspace, "list.txt"), "utf8")).toBe("a\nB\nc\nd\ne\nF\n");
  });

  it("changes nothing when one hunk fails, and names the file and the hunk", async () => {
    const before = { "a.txt": "one\ntwo\n", "b.txt": "three\nfour\n", "c.txt": "keep me\n" };
    const workspace = workspaceWith(before);
    const result = await applyPatch.execute(
      {
        input: patch(
          "*** Add File: added.txt",
          "+new",
          "*** Update File: a.txt",
          "-one",
          "+ONE",
          "*** Delete File: c.txt",
          "*** Update File: b.txt",
          "@@",
          "-three",
          "+THREE",
          "@@",
          "-this line is not in the file",
          "+x",
        ),
      },
      makeContext(workspace),
      neverAborted,
    );
    const failure = errorOf(result);
    expect(failure.error).toBe("PATCH_HUNK_FAILED");
    expect(failure.message).toContain('"b.txt", hunk 2');
    expect(failure.message).toContain("this line is not in the file");
    expect(failure.message).toContain("Nothing was changed");
    expect(failure.suggestion).toMatch(/read the file again/i);
    expect(snapshot(workspace)).toEqual(before);
  });

  it("refuses to add over an existing file or update a missing one", async () => {
    const workspace = workspaceWith({ "here.txt": "x\n" });
    const ctx = makeContext(workspace);
    expect(errorOf(await applyPatch.execute({ input: patch("*** Add File: here.txt", "+y") }, ctx, neverAborted)).error).toBe("FILE_EXISTS");
    expect(errorOf(await applyPatch.execute({ input: patch("*** Update File: gone.txt", "-a", "+b") }, ctx, neverAborted)).error).toBe("FILE_NOT_FOUND");
    expect(errorOf(await applyPatch.execute({ input: patch("*** Delete File: gone.txt") }, ctx, neverAborted)).error).toBe("FILE_NOT_FOUND");
    expect(snapshot(workspace)).toEqual({ "here.txt": "x\n" });
  });

  it("reports malformed patches with the line number", async () => {
    const workspace = workspaceWith({});
    const ctx = makeContext(workspace);
    const noBegin = errorOf(await applyPatch.execute({ input: "*** Add File: a\n+x\n*** End Patch" }, ctx, neverAborted));
    expect(noBegin).toMatchObject({ error: "PATCH_PARSE_ERROR" });
    expect(noBegin.message).toContain("line 1");
    const badLine = errorOf(await applyPatch.execute({ input: patch("*** Add File: a.txt", "no plus") }, ctx, neverAborted));
    expect(badLine.message).toContain("line 3");
  });

  it("keeps every path inside the workspace, including Move to targets, and changes nothing", async () => {
    const { workspace, outside } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "in.txt"), "in\n");
    fs.symlinkSync(outside, path.join(workspace, "out"));
    const ctx = makeContext(workspace);
    const attempts = [
      patch("*** Add File: ../evil.txt", "+x"),
      patch("*** Add File: /tmp/evil-apply-patch.txt", "+x"),
      patch("*** Add File: out/evil.txt", "+x"),
      patch("*** Update File: in.txt", "*** Move to: ../moved.txt", "-in", "+out"),
      patch("*** Add File: fine.txt", "+ok", "*** Delete File: ../../etc/passwd"),
    ];
    for (const input of attempts) {
      expect(errorOf(await applyPatch.execute({ input }, ctx, neverAborted)).error).toBe("PATH_OUTSIDE_WORKSPACE");
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readdirSync(workspace).sort()).toEqual(["in.txt", "out"]);
    expect(fs.readFileSync(path.join(workspace, "in.txt"), "utf8")).toBe("in\n");
  });
});

describe("parsePatch", () => {
  it("reads anchors, end-of-file marks and blank context lines, and ignores unified-diff ranges", () => {
    const operations = parsePatch(patch("*** Update File: a.py", "@@ def f():", "     x = 1", "", "-    return x", "+    return 2", "*** End of File", "@@ -1,2 +1,2 @@", " y"));
    expect(operations).toEqual([
      {
        kind: "update",
        path: "a.py",
        moveTo: undefined,
        hunks: [
          {
            anchor: "def f():",
            endOfFile: true,
            patchLine: 3,
            lines: [
              { kind: "context", text: "    x = 1" },
              { kind: "context", text: "" },
              { kind: "remove", text: "    return x" },
              { kind: "add", text: "    return 2" },
            ],
          },
          { anchor: undefined, endOfFile: false, patchLine: 9, lines: [{ kind: "context", text: "y" }] },
        ],
      },
    ]);
  });
});
