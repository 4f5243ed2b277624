import fs from "node:fs";
import path from "node:path";
import { Kind, type TSchema } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { loadConfig, OpenClawConfigSchema, parseConfigText, validateConfig } from "../../../src/config/index.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const exampleText = fs.readFileSync(path.join(repoRoot, "openclaw.example.yaml"), "utf8");
const docsText = fs.readFileSync(path.join(repoRoot, "docs/configuration.md"), "utf8");

type Node = TSchema & { properties?: Record<string, TSchema>; patternProperties?: Record<string, TSchema>; items?: TSchema; anyOf?: TSchema[] };
const kindOf = (schema: TSchema) => (schema as { [Kind]?: string })[Kind];

/**
 * Every key path the schema implements, with "*" for a record key and "[]" for an array
 * item. A "string or object" key is listed itself and with the object's keys.
 */
function schemaKeyPaths(schema: TSchema, prefix = ""): string[] {
  const node = schema as Node;
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  switch (kindOf(schema)) {
    case "Object":
      return Object.entries(node.properties ?? {}).flatMap(([key, child]) => schemaKeyPaths(child, join(key)));
    case "Record": {
      const valueSchema = Object.values(node.patternProperties ?? {})[0]!;
      return ["Object", "Record", "Array"].includes(kindOf(valueSchema)!) && kindOf(valueSchema) !== "Record"
        ? schemaKeyPaths(valueSchema, join("*"))
        : [join("*")];
    }
    case "Array":
      return kindOf(node.items!) === "Object" ? schemaKeyPaths(node.items!, `${prefix}[]`) : [prefix];
    case "Union": {
      const objectVariant = (node.anyOf ?? []).find((variant) => kindOf(variant) === "Object");
      return objectVariant ? [prefix, ...schemaKeyPaths(objectVariant, prefix)] : [prefix];
    }
    default:
      return [prefix];
  }
}

/** Leaf paths of parsed data in the same notation, given which object keys are record keys. */
function dataKeyPaths(value: unknown, schema: TSchema, prefix = ""): string[] {
  const node = schema as Node;
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  const kind = kindOf(schema);
  if (kind === "Union") {
    const objectVariant = (node.anyOf ?? []).find((variant) => kindOf(variant) === "Object");
    return objectVariant && typeof value === "object" ? dataKeyPaths(value, objectVariant, prefix) : [prefix];
  }
  if (kind === "Object" && value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => dataKeyPaths(child, node.properties![key]!, join(key)));
  }
  if (kind === "Record" && value && typeof value === "object") {
    const valueSchema = Object.values(node.patternProperties!)[0]!;
    return Object.values(value).flatMap((child) => dataKeyPaths(child, valueSchema, join("*")));
  }
  if (kind === "Array" && Array.isArray(value) && kindOf(node.items!) === "Object") {
    return value.flatMap((item) => dataKeyPaths(item, node.items!, `${prefix}[]`));
  }
  return [prefix];
}

/** Removes the "#" of commented-out settings ("#key: value"), keeping "# prose" comments. */
function uncommentSettings(text: string): string {
  return text.replace(/^(\s*)#(?=[^\s#!])/gm, "$1");
}

const EXAMPLE_ENV = {
  GATEWAY_TOKEN: "t",
  GATEWAY_PASSWORD: "p",
  REMOTE_GATEWAY_TOKEN: "rt",
  REMOTE_GATEWAY_PASSWORD: "rp",
  LOCAL_LLM_API_KEY: "k",
};

describe("openclaw.example.yaml", () => {
  it("loads as shipped without warnings", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.yaml", exampleText);
    const loaded = loadConfig({ stateDir: state, env: {} });
    expect(loaded.warnings).toEqual([]);
  });

  it("stays valid, and warning-free, with every setting uncommented", () => {
    const raw = parseConfigText(uncommentSettings(exampleText), "example-uncommented.yaml");
    const { warnings } = validateConfig(raw, EXAMPLE_ENV);
    expect(warnings).toEqual([]);
  });

  it("shows every implemented key", () => {
    const raw = parseConfigText(uncommentSettings(exampleText), "example-uncommented.yaml");
    const shown = new Set(dataKeyPaths(raw, OpenClawConfigSchema));
    const isShown = (key: string) => [...shown].some((s) => s === key || s.startsWith(`${key}.`) || s.startsWith(`${key}[`));
    expect(schemaKeyPaths(OpenClawConfigSchema).filter((key) => !isShown(key))).toEqual([]);
  });
});

describe("docs/configuration.md", () => {
  it("documents every implemented key", () => {
    // Docs write record keys as <id>, <ref>, <name>…; agent list entries share the keyed entries' rows.
    const documented = (key: string) => {
      const docKey = key === "agents.list[].id" ? key : key.replace(/^agents\.list\[\]/, "agents.entries.*");
      const pattern = docKey
        .split("*")
        .map((part) => part.replace(/[.[\]$]/g, "\\$&"))
        .join("<[a-zA-Z]+>");
      return new RegExp("`" + pattern + "`").test(docsText);
    };
    expect(schemaKeyPaths(OpenClawConfigSchema).filter((key) => !documented(key))).toEqual([]);
  });
});
