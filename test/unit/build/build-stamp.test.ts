import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module of the build, without type declarations
import { inputHash, isUpToDate, writeStamp } from "../../../build/build-stamp.mjs";

describe("build stamp (npm start / npm test rebuild only when an input changed)", () => {
  let root: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const built = () => {
    write("dist/bin/openclaw.js", "// bundle");
    writeStamp(root, inputHash(root));
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-stamp-"));
    write("package.json", "{}");
    write("package-lock.json", "{}");
    write("src/cli/main.ts", "export const a = 1;");
    write("extensions/slack/index.ts", "export default {};");
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("is stale on a fresh clone (no dist/) and after an interrupted build (no stamp)", () => {
    expect(isUpToDate(root)).toBe(false);
    write("dist/bin/openclaw.js", "// half a build");
    expect(isUpToDate(root)).toBe(false);
  });

  it("stays up to date when only mtimes change (a checkout of the same sources)", () => {
    built();
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, "src/cli/main.ts"), later, later);
    expect(isUpToDate(root)).toBe(true);
  });

  it("is stale when a source, an extension, the lockfile or the file list changes, and again up to date on the old content", () => {
    built();
    write("src/cli/main.ts", "export const a = 2;");
    expect(isUpToDate(root)).toBe(false);
    // A checkout back to the sources dist/ was built from.
    write("src/cli/main.ts", "export const a = 1;");
    expect(isUpToDate(root)).toBe(true);

    for (const [file, text] of [
      ["extensions/slack/index.ts", "export default { x: 1 };"],
      ["package-lock.json", '{"v":2}'],
      ["src/new-file.ts", ""],
    ] as const) {
      built();
      write(file, text);
      expect(isUpToDate(root), file).toBe(false);
    }
    built();
    fs.renameSync(path.join(root, "src/new-file.ts"), path.join(root, "src/renamed.ts"));
    expect(isUpToDate(root)).toBe(false);
  });

  it("is stale when dist/ lost its bundle", () => {
    built();
    fs.rmSync(path.join(root, "dist/bin/openclaw.js"));
    expect(isUpToDate(root)).toBe(false);
  });
});
