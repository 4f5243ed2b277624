import fs from "node:fs";
import path from "node:path";
import { parseSync } from "rolldown/utils";

/**
 * The layers of src/, top first. A file may import from its own top-level folder and from the
 * folders in rows below its own; folders sharing a row are independent and may not import each
 * other. A new top-level folder goes in the row its imports put it in: below every folder that
 * imports it, above every folder it imports. docs/architecture.md draws the same picture; keep
 * the two in step.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli"],
  ["gateway"],
  ["channels", "cron"],
  ["conversations"],
  ["acp", "hooks"],
  ["traces"],
  ["agents"],
  ["memory", "tasks"],
  ["sessions"],
  ["models"],
  ["config"],
  ["infra"],
];

/** Imports that leave src/ on purpose: the gateway's table of the channel plugins it ships loads them from extensions/. */
export const OUTSIDE_SRC_ALLOWED: readonly { file: string; under: string }[] = [{ file: "src/gateway/builtin-channel-plugins.ts", under: "extensions/" }];

const LAYERS_HOME = "LAYERS in test/helpers/layering.ts";

/** Every `.ts` file under `srcDir`, keyed by its path from the repository root (forward slashes). */
export function readSources(repoRoot: string, srcDir = "src"): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".ts")) files.set(rel, fs.readFileSync(path.join(repoRoot, rel), "utf8"));
    }
  };
  walk(srcDir);
  return files;
}

/** The relative module specifiers a file imports: static, type-only, re-exports and dynamic `import()`. */
export function relativeImports(source: string, fileName = "file.ts"): string[] {
  const parsed = parseSync(fileName, source, { lang: "ts" });
  if (parsed.errors.length > 0) throw new Error(`${fileName} does not parse: ${parsed.errors[0]!.message}`);
  const { staticImports, staticExports, dynamicImports } = parsed.module;
  const specifiers = [
    ...staticImports.map((i) => i.moduleRequest.value),
    ...staticExports.flatMap((e) => e.entries.flatMap((entry) => (entry.moduleRequest ? [entry.moduleRequest.value] : []))),
    // A dynamic import's span covers its argument; only a plain string literal names a module.
    ...dynamicImports.map((d) => source.slice(d.moduleRequest.start, d.moduleRequest.end)).flatMap((arg) => (/^(["'])[^"'`]*\1$/.test(arg) ? [arg.slice(1, -1)] : [])),
  ];
  return [...new Set(specifiers)].filter((name) => name.startsWith("."));
}

/**
 * What breaks the layering in `files` (path from the repository root → source), one readable
 * line each: a file importing a layer above its own or a sibling folder of its row, a
 * top-level folder the table does not place, or an import leaving src/.
 */
export function layeringViolations(files: ReadonlyMap<string, string>): string[] {
  const row = new Map<string, number>();
  LAYERS.forEach((folders, index) => folders.forEach((folder) => row.set(folder, index)));
  const problems: string[] = [];
  const unplaced = new Set<string>();
  const layerOf = (file: string): string => {
    const parts = file.split("/");
    return parts.length > 2 ? parts[1]! : "";
  };
  for (const [file, source] of files) {
    const from = layerOf(file);
    if (!row.has(from)) {
      unplaced.add(from);
      continue;
    }
    for (const specifier of relativeImports(source, file)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (!target.startsWith("src/")) {
        if (!OUTSIDE_SRC_ALLOWED.some((a) => a.file === file && target.startsWith(a.under))) {
          problems.push(`${file} imports "${specifier}", outside src/: only the channel plugin table (${OUTSIDE_SRC_ALLOWED.map((a) => a.file).join(", ")}) may.`);
        }
        continue;
      }
      const to = layerOf(target);
      if (to === from) continue;
      const toRow = row.get(to);
      if (toRow === undefined) {
        unplaced.add(to);
        continue;
      }
      const fromRow = row.get(from)!;
      if (toRow > fromRow) continue;
      const why = toRow === fromRow ? `${from} and ${to} share a row and may not import each other` : `${to} sits above ${from}`;
      problems.push(
        `${file} imports "${specifier}": layer ${from} may not import layer ${to} (${why} in ${LAYERS_HOME}). ` +
          `Move what both need down to a layer below ${from}, or declare in ${from} the port it needs and let ${to} implement it.`,
      );
    }
  }
  for (const folder of unplaced) {
    const where = folder === "" ? "a file directly under src/" : `src/${folder}/`;
    problems.push(
      `${where} is not placed in ${LAYERS_HOME}: put ${folder === "" ? "it in a folder" : "the folder"} in the row its imports put it in ` +
        "(below every folder that imports it, above every folder it imports) and add it to the layer picture in docs/architecture.md.",
    );
  }
  return problems;
}
