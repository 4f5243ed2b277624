import fs from "node:fs";
import path from "node:path";
import { Kind, type TSchema } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { loadConfig, OpenClawConfigSchema, parseConfigText, validateConfig } from "../../../src/config/index.js";
import { makeTempDir, writeFile } from "./temp-dir.js";
import { schemaKeyPaths } from "../../helpers/schema-key-paths.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const exampleText = fs.readFileSync(path.join(repoRoot, "openclaw.example.yaml"), "utf8");
const docsText = fs.readFileSync(path.join(repoRoot, "docs/configuration.md"), "utf8");

type Node = TSchema & { properties?: Record<string, TSchema>; patternProperties?: Record<string, TSchema>; items?: TSchema };
const kindOf = (schema: TSchema) => (schema as { [Kind]?: string })[Kind];

/** Leaf paths of parsed data in the notation of schemaKeyPaths. */
function dataKeyPaths(value: unknown, schema: TSchema, prefix = ""): string[] {
  const node = schema as Node;
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  const isObject = typeof value === "object" && value !== null;
  if (kindOf(schema) === "Object" && isObject) {
    return Object.entries(value).flatMap(([key, child]) => dataKeyPaths(child, node.properties![key]!, join(key)));
  }
  if (kindOf(schema) === "Record" && isObject) {
    const valueSchema = Object.values(node.patternProperties!)[0]!;
    if (kindOf(valueSchema) !== "Object") return [prefix];
    return Object.values(value).flatMap((child) => dataKeyPaths(child, valueSchema, join("*")));
  }
  if (kindOf(schema) === "Array" && Array.isArray(value) && kindOf(node.items!) === "Object") {
    return value.flatMap((item) => dataKeyPaths(item, node.items!, `${prefix}[]`));
  }
  return [prefix];
}

const foldAgentList = (key: string) => key.replace(/^agents\.list\[\]/, "agents.entries.*");

/** Removes the "#" of commented-out settings ("#key: value"), keeping "# prose" comments. */
function uncommentSettings(text: string): string {
  return text.replace(/^(\s*)#(?=[^\s#!])/gm, "$1");
}

const EXAMPLE_ENV = {
  GATEWAY_TOKEN: "t",
  GATEWAY_PASSWORD: "p",
  REMOTE_GATEWAY_TOKEN: "rt",
  REMOTE_GATEWAY_PASSWORD: "rp",
  GITHUB_PAT: "gp",
  BRAVE_API_KEY: "bk",
  GEMINI_API_KEY: "gk",
  PERPLEXITY_API_KEY: "pk",
  EXA_API_KEY: "ek",
  XAI_API_KEY: "xk",
  TAVILY_API_KEY: "tk",
  DOCS_TOKEN: "dt",
  LOCAL_LLM_API_KEY: "k",
  TELEGRAM_BOT_TOKEN: "123:abc",
  TELEGRAM_WEBHOOK_SECRET: "s",
  TELEGRAM_WORK_TOKEN: "456:def",
  DISCORD_BOT_TOKEN: "d",
  SLACK_BOT_TOKEN: "xoxb-1",
  SLACK_APP_TOKEN: "xapp-1",
  SLACK_SIGNING_SECRET: "s",
  ANTHROPIC_API_KEY: "sk-ant",
  // The example's image model is openai's, which needs its key.
  OPENAI_API_KEY: "sk-openai",
  CRON_WEBHOOK_TOKEN: "w",
  HOOKS_TOKEN: "h",
};

describe("openclaw.example.yaml", () => {
  it("loads as shipped without warnings", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.yaml", exampleText);
    const loaded = loadConfig({ stateDir: state, env: {} });
    expect(loaded.warnings).toEqual([]);
  });

  it("stays valid with every setting uncommented, warning only that trusted-proxy auth's keys are idle beside token auth", () => {
    const raw = parseConfigText(uncommentSettings(exampleText), "example-uncommented.yaml");
    const { warnings } = validateConfig(raw, EXAMPLE_ENV);
    // The example shows the trusted-proxy keys beside token auth; together, those keys do nothing and say so.
    expect(warnings).toEqual([
      'gateway.auth.trustedProxy is ignored: gateway.auth.mode is "token", not "trusted-proxy" (set the mode to use it, or remove it)',
      'gateway.auth.identityScopes is ignored: gateway.auth.mode is "token", not "trusted-proxy" (set the mode to use it, or remove it)',
    ]);
  });

  it("shows every implemented key", () => {
    const raw = parseConfigText(uncommentSettings(exampleText), "example-uncommented.yaml");
    const shown = new Set(dataKeyPaths(raw, OpenClawConfigSchema).map(foldAgentList));
    const missing = schemaKeyPaths(OpenClawConfigSchema).filter((key) => !shown.has(foldAgentList(key)));
    expect(missing).toEqual([]);
  });
});

describe("docs/configuration.md", () => {
  it("documents every implemented key", () => {
    // Docs write record keys as <id>, <ref>…; agent list items share the keyed entries' rows.
    const documented = (key: string) => {
      const pattern = foldAgentList(key)
        .split("*")
        .map((part) => part.replace(/[.[\]$]/g, "\\$&"))
        .join("<[a-zA-Z]+>");
      return new RegExp(`\`${pattern}\``).test(docsText);
    };
    expect(schemaKeyPaths(OpenClawConfigSchema).filter((key) => !documented(key))).toEqual([]);
  });
});
