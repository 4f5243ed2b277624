import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../../src/agents/tools/edit.js";
import { errorOf, makeContext, makeWorkspace, neverAborted, textOf } from "./helpers.js";

const edit = createEditTool();

function setup(content: string): { workspace: string; file: string } {
  const { workspace } = makeWorkspace();
  const file = path.join(workspace, "app.ts");
  fs.writeFileSync(file, content);
  return { workspace, file };
}

describe("edit", () => {
  it("replaces one exact, unique match", async () => {
    const { workspace, file } = setup("const a = 1;\nconst b = 2;\nconst c = $x;\n");
    const result = await edit.execute({ path: "app.ts", oldText: "const b = 2;", newText: "const b = 3;\nconst bb = '$&';" }, makeContext(workspace), neverAborted);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toContain("Edited app.ts");
    // "$&" must land literally: no replacement-pattern expansion.
    expect(fs.readFileSync(file, "utf8")).toBe("const a = 1;\nconst b = 3;\nconst bb = '$&';\nconst c = $x;\n");
  });

  it("tells the model to re-read when the text is not found, and changes nothing", async () => {
    const { workspace, file } = setup("alpha\nbeta\n");
    const failure = errorOf(await edit.execute({ path: "app.ts", oldText: "gamma", newText: "delta" }, makeContext(workspace), neverAborted));
    expect(failure.error).toBe("EDIT_NO_MATCH");
    expect(failure.suggestion).toMatch(/read the file again/i);
    expect(fs.readFileSync(file, "utf8")).toBe("alpha\nbeta\n");
  });

  it("asks for more context when the text occurs several times, and changes nothing", async () => {
    const { workspace, file } = setup("x = 1\ny = 2\nx = 1\n");
    const failure = errorOf(await edit.execute({ path: "app.ts", oldText: "x = 1", newText: "x = 9" }, makeContext(workspace), neverAborted));
    expect(failure.error).toBe("EDIT_AMBIGUOUS");
    expect(failure.message).toContain("2 times");
    expect(failure.suggestion).toMatch(/more surrounding lines/);
    expect(fs.readFileSync(file, "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("treats overlapping matches as ambiguous", async () => {
    const { workspace } = setup("aaa");
    expect(errorOf(await edit.execute({ path: "app.ts", oldText: "aa", newText: "b" }, makeContext(workspace), neverAborted)).error).toBe("EDIT_AMBIGUOUS");
  });

  it("matches LF oldText in a CRLF file and keeps CRLF", async () => {
    const { workspace, file } = setup("one\r\ntwo\r\nthree\r\n");
    await edit.execute({ path: "app.ts", oldText: "one\ntwo", newText: "uno\ndos" }, makeContext(workspace), neverAborted);
    expect(fs.readFileSync(file, "utf8")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  it("reports missing files, empty oldText, and paths outside the workspace", async () => {
    const { workspace } = setup("x");
    const ctx = makeContext(workspace);
    expect(errorOf(await edit.execute({ path: "nope.ts", oldText: "a", newText: "b" }, ctx, neverAborted)).error).toBe("FILE_NOT_FOUND");
    expect(errorOf(await edit.execute({ path: "app.ts", oldText: "", newText: "b" }, ctx, neverAborted)).error).toBe("INVALID_ARGUMENT");
    expect(errorOf(await edit.execute({ path: "../app.ts", oldText: "a", newText: "b" }, ctx, neverAborted)).error).toBe("PATH_OUTSIDE_WORKSPACE");
  });
});
