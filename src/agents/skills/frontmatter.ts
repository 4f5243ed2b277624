import { parse as parseYaml } from "yaml";

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const SIMPLE_LINE = /^([A-Za-z0-9_-]+):[ \t]*(.*)$/;

export type FrontmatterResult = { data: Record<string, unknown>; body: string } | { error: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value;
}

/**
 * Hand-written SKILL.md files often hold lines YAML refuses, most often a description with a
 * second colon ("description: Use when: the gateway is down"). When YAML fails, a file whose
 * every line is a flat `key: value` is still read that way (OpenClaw does the same), so such a
 * skill is not lost over punctuation. Anything nested or otherwise irregular is rejected.
 */
function parseSimpleLines(source: string): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  for (const line of source.split(/\r?\n/)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match || match[2]!.trim() === "") return null;
    data[match[1]!] = unquote(match[2]!.trim());
  }
  return data;
}

/** Splits a SKILL.md into its YAML frontmatter (between the first two `---` lines) and its body. */
export function parseFrontmatter(text: string): FrontmatterResult {
  const match = FRONTMATTER.exec(text);
  if (!match) return { error: "no frontmatter (the file must start with a --- line, and a second --- line must close it)" };
  const source = match[1]!;
  const body = text.slice(match[0].length);
  let yamlError: string;
  try {
    const data: unknown = parseYaml(source, { logLevel: "error" });
    if (isPlainObject(data)) return { data, body };
    yamlError = "frontmatter is not a mapping of keys to values";
  } catch (error) {
    yamlError = `invalid YAML in frontmatter: ${(error as Error).message.split("\n")[0]}`;
  }
  const simple = parseSimpleLines(source);
  return simple ? { data: simple, body } : { error: yamlError };
}
