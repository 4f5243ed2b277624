import path from "node:path";
import { describe, expect, it } from "vitest";
import { layeringViolations, readSources, relativeImports } from "../../helpers/layering.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

describe("layering of src/", () => {
  it("no file imports from a layer above its own", () => {
    const files = readSources(REPO_ROOT);
    expect(files.size).toBeGreaterThan(100);
    expect(layeringViolations(files)).toEqual([]);
  });

  it("names the file, the import and both layers of an upward import", () => {
    const problems = layeringViolations(new Map([["src/channels/dispatch/x.ts", `import { y } from "../../gateway/y.js";\n`]]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("src/channels/dispatch/x.ts");
    expect(problems[0]).toContain('"../../gateway/y.js"');
    expect(problems[0]).toContain("layer channels may not import layer gateway");
  });

  it("counts type-only imports, re-exports and dynamic imports", () => {
    const source = [
      `import type { A } from "../conversations/a.js";`,
      `export { B } from "../channels/b.js";`,
      `const c = () => import("../gateway/c.js");`,
      `import { d } from "node:fs";`,
    ].join("\n");
    expect(relativeImports(source)).toEqual(["../conversations/a.js", "../channels/b.js", "../gateway/c.js"]);
    expect(layeringViolations(new Map([["src/agents/x.ts", source]]))).toHaveLength(3);
  });

  it("lets a layer import the layers below it and its own folder", () => {
    const files = new Map([
      ["src/gateway/a.ts", `import "../channels/x.js"; import "../conversations/y.js"; import "../infra/z.js"; import "./b.js";`],
      ["src/infra/z.ts", `export const z = 1;`],
    ]);
    expect(layeringViolations(files)).toEqual([]);
  });

  it("fails on a top-level folder the table does not place, saying what to do", () => {
    const problems = layeringViolations(new Map([["src/unplaced-example/x.ts", `import "../infra/logger.js";`]]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("src/unplaced-example/ is not placed in LAYERS");
    expect(problems[0]).toContain("docs/architecture.md");
  });

  it("allows imports outside src/ only from the channel plugin table", () => {
    const load = `const t = () => import("../../extensions/telegram/index.js");`;
    expect(layeringViolations(new Map([["src/gateway/builtin-channel-plugins.ts", load]]))).toEqual([]);
    const problems = layeringViolations(new Map([["src/channels/plugin-loader.ts", load]]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("outside src/");
  });
});
