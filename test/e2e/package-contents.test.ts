import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "rolldown/experimental";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  license: string;
  keywords?: string[];
  files: string[];
  bin: { openclaw: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Optional peers of `ws`, and linkedom's `canvas` (web_fetch's DOM): each is tried and works without. */
const OPTIONAL_AT_RUN_TIME = new Set(["bufferutil", "utf-8-validate", "canvas"]);

const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w./-]*)?$/;

/**
 * What a chunk loads: its `import … from "x"` and `export … from "x"` statements, `import("x")`,
 * and the CommonJS `__require("x")` / `require.resolve("x")` rolldown leaves for externals, read
 * from the chunk's syntax tree (the bundle has no line breaks to anchor on). Strings that merely
 * look like paths inside bundled code are not matched.
 */
function importSpecifiers(file: string, code: string): string[] {
  const found: string[] = [];
  const literal = (node: any): string | undefined => {
    if (node?.type === "Literal" && typeof node.value === "string") return node.value;
    if (node?.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
    return undefined;
  };
  const isRequire = (node: any) => node?.type === "Identifier" && (node.name === "require" || node.name === "__require");
  const visit = (node: any): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    switch (node.type) {
      case "ImportDeclaration":
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
      case "ImportExpression": {
        const spec = literal(node.source);
        if (spec) found.push(spec);
        break;
      }
      case "CallExpression": {
        const callee = node.callee;
        const required =
          (callee?.type === "Identifier" && callee.name === "__require") ||
          (callee?.type === "MemberExpression" && isRequire(callee.object) && callee.property?.name === "resolve");
        const spec = required ? literal(node.arguments?.[0]) : undefined;
        if (spec) found.push(spec);
        break;
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== "type" && value && typeof value === "object") visit(value);
  };
  const parsed = parseSync(file, code, { sourceType: file.endsWith(".cjs") ? "script" : "module" });
  if (parsed.errors.length > 0) throw new Error(`${file} does not parse: ${parsed.errors[0]!.message}`);
  visit(parsed.program);
  return found;
}

function packedFiles(): string[] {
  // --ignore-scripts: prepack would rebuild; dist/ is already built for the e2e suite.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
}

/** Bare module names the bundle imports or requires at run time (node built-ins excluded). */
function bundleExternals(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files.filter((f) => f.startsWith("dist/bin/") && /\.c?js$/.test(f))) {
    const code = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const spec of importSpecifiers(file, code)) {
      if (!PACKAGE_NAME.test(spec)) continue;
      if (spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0]!)) continue;
      names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
    }
  }
  return names;
}

describe("npm package", () => {
  const files = packedFiles();

  it("ships the bundle, the built Control UI, the bundled skills and hooks, README, LICENSE and package.json, nothing else", () => {
    const unexpected = files.filter(
      (f) =>
        !["package.json", "README.md", "LICENSE"].includes(f) &&
        !/^dist\/bin\/[^/]+\.c?js$/.test(f) &&
        !f.startsWith("dist/control-ui/") &&
        !f.startsWith("skills/") &&
        !f.startsWith("hooks/"),
    );
    expect(unexpected).toEqual([]);
    expect(files).toContain("dist/bin/openclaw.js");
    expect(files).toContain("dist/bin/openclaw.cjs");
    expect(pkg.bin.openclaw).toBe("dist/bin/openclaw.cjs");
    expect(files).toContain("dist/control-ui/index.html");
    expect(files).toContain("hooks/session-memory/HOOK.md");
    expect(
      files.some((f) => f.endsWith(".ts")),
      "no TypeScript sources",
    ).toBe(false);
  });

  it("holds every chunk the bundle imports", () => {
    for (const file of files.filter((f) => f.startsWith("dist/bin/"))) {
      const code = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const spec of importSpecifiers(file, code).filter((s) => s.startsWith("./"))) {
        expect(files, `${file} imports ${spec}`).toContain(path.posix.join("dist/bin", spec));
      }
    }
    // Both entries load the rest of the CLI by a URL built at run time.
    expect(files).toContain("dist/bin/run-cli.js");
  });

  it("writes every chunk in ASCII, so V8 holds its source at one byte per character", () => {
    for (const file of files.filter((f) => f.startsWith("dist/bin/"))) {
      const code = fs.readFileSync(path.join(ROOT, file), "latin1");
      const at = code.search(/[^\x00-\x7f]/);
      expect(at, `${file} has a non-ASCII byte at ${at}: ${JSON.stringify(code.slice(Math.max(0, at - 40), at + 10))}`).toBe(-1);
    }
  });

  it("keeps the dependencies' license comments in the chunks", () => {
    const server = files.find((f) => /^dist\/bin\/server-[^/]+\.js$/.test(f))!;
    expect(fs.readFileSync(path.join(ROOT, server), "utf8")).toMatch(/Copyright\(c\) \d{4}(-\d{4})? Fastify/);
  });

  it("depends at run time on exactly what the bundle leaves external", () => {
    const external = bundleExternals(files);
    const runtime = Object.keys(pkg.dependencies);
    for (const name of external) if (!OPTIONAL_AT_RUN_TIME.has(name)) expect(runtime, `the bundle loads ${name} at run time`).toContain(name);
    for (const name of runtime) expect([...external], `${name} is bundled, so it belongs in devDependencies`).toContain(name);
  });

  it("pins every direct dependency to an exact version (the lockfile pins the rest)", () => {
    const ranged = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, v]) => !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v));
    expect(ranged).toEqual([]);
  });

  it("builds on pack, not on install, and carries its license and keywords", () => {
    expect(pkg.scripts.prepack).toBeDefined();
    expect(pkg.scripts.prepare).toBeUndefined();
    expect(pkg.license).toBe("MIT");
    expect(fs.readFileSync(path.join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(pkg.keywords?.length).toBeGreaterThan(0);
  });
});
