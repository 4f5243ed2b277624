import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OpenClawConfigSchema } from "../../../src/config/index.js";
import { schemaKeyPaths } from "../../helpers/schema-key-paths.js";

/**
 * "Config valid" must mean the config does what it says: every key the schema accepts is read by
 * code outside src/config (which only parses, checks and defaults it). A key counts as read when a
 * source file reads its last name as a property (`.name`, `?.name`, `name,` / `name }` in a
 * destructuring, `["name"]`) and also names the key's parent, so `compaction.enabled` needs a
 * file that mentions `compaction` and reads `.enabled`. Channel keys are read by the channel
 * layer or the channel's own extension without naming the channel, so for them the parent is the
 * folder: src/channels/ or extensions/<channel>/.
 *
 * A new key either gets code that reads it or stays out of the schema, the example and the docs.
 */
const repoRoot = path.resolve(import.meta.dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const sources = [...sourceFiles(path.join(repoRoot, "src")), ...sourceFiles(path.join(repoRoot, "extensions"))]
  .filter((file) => !file.startsWith(path.join(repoRoot, "src", "config") + path.sep))
  .map((file) => {
    const text = fs.readFileSync(file, "utf8");
    return { rel: path.relative(repoRoot, file), text, lower: text.toLowerCase() };
  });

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const readersByName = new Map<string, typeof sources>();

/** The source files that read `name` as a property. */
function filesReading(name: string): typeof sources {
  let found = readersByName.get(name);
  if (!found) {
    const n = escapeRegex(name);
    const pattern = new RegExp(`\\??\\.${n}\\b|[{,]\\s*${n}\\s*[,}:=]|\\[\\s*"${n}"\\s*\\]|\\b${n}\\s*[,}]`);
    found = sources.filter((s) => s.text.includes(name) && pattern.test(s.text));
    readersByName.set(name, found);
  }
  return found;
}

/** The files that read this key, by the rule above. */
function readersOf(keyPath: string): string[] {
  const names = keyPath.split(/\.|\[\]/).filter((s) => s && s !== "*" && s !== "$schema");
  const leaf = names.at(-1);
  if (!leaf) return ["(editor key)"];
  const channel = /^channels\.(telegram|discord|slack)\./.exec(keyPath)?.[1];
  if (channel) {
    return filesReading(leaf)
      .filter((s) => s.rel.startsWith("src/channels/") || s.rel.startsWith(`extensions/${channel}/`))
      .map((s) => s.rel);
  }
  const parent = names.at(-2);
  return filesReading(leaf)
    .filter((s) => parent === undefined || s.lower.includes(parent.toLowerCase()))
    .map((s) => s.rel);
}

describe("every config key is read by something", () => {
  const keys = schemaKeyPaths(OpenClawConfigSchema).filter((key) => key !== "$schema");

  it("walks the whole schema", () => {
    expect(keys).toContain("gateway.port");
    expect(keys).toContain("channels.slack.signingSecret");
    expect(keys.length).toBeGreaterThan(150);
  });

  it("no key is accepted that no code reads", () => {
    const unread = keys.filter((key) => readersOf(key).length === 0);
    expect(unread, "these keys are in the schema but nothing reads them: implement them or remove them from the schema, openclaw.example.yaml and docs/configuration.md").toEqual(
      [],
    );
  });

  it("the rule itself catches a key nothing reads", () => {
    expect(readersOf("gateway.notARealKey")).toEqual([]);
    expect(readersOf("agents.defaults.compaction.enabled").length).toBeGreaterThan(0);
  });
});
