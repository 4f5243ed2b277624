import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfigText } from "../../../src/config/index.js";

function parseError(text: string, file: string): ConfigError {
  try {
    parseConfigText(text, file);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfigText", () => {
  const yamlFile = path.join("/cfg", "openclaw.yaml");
  const jsonFile = path.join("/cfg", "openclaw.json");

  it("reports YAML syntax errors as file:line:column", () => {
    const err = parseError("gateway:\n  port: 1\n bind: lan\n", yamlFile);
    expect(err.message).toMatch(/^\/cfg\/openclaw\.yaml:3:1: .+/);
    expect(err).toMatchObject({ filePath: yamlFile, line: 3, column: 1 });
    expect(err.issues).toHaveLength(1);
  });

  it("points at the exact column inside a YAML line", () => {
    const err = parseError("gateway:\n  bind: @lan\n", yamlFile);
    expect(err.message).toMatch(/^\/cfg\/openclaw\.yaml:2:9: /);
  });

  it("treats YAML duplicate keys and warnings as errors", () => {
    expect(parseError("logging:\n  level: info\n  level: debug\n", yamlFile).message).toMatch(/:3:3: map keys must be unique/);
    expect(parseError("%FOO bar\n---\na: 1\n", yamlFile).message).toMatch(/:1:1: unknown directive/i);
  });

  it("reports JSON5 syntax errors as file:line:column", () => {
    const err = parseError("{\n  gateway: {\n    port: 18789,,\n  }\n}", jsonFile);
    expect(err.message).toBe("/cfg/openclaw.json:3:17: invalid character ','");
    expect(err).toMatchObject({ filePath: jsonFile, line: 3, column: 17 });
  });

  it("parses JSON5 niceties (comments, unquoted keys, trailing commas)", () => {
    expect(parseConfigText("// hi\n{ gateway: { port: 1, }, }", jsonFile)).toEqual({ gateway: { port: 1 } });
  });

  it("uses JSON5 for every extension that is not .yaml/.yml", () => {
    expect(parseConfigText("{a: 1}", "/cfg/openclaw.json5")).toEqual({ a: 1 });
    expect(parseConfigText("a: 1\n", "/cfg/openclaw.yml")).toEqual({ a: 1 });
    expect(() => parseConfigText("a: 1\n", "/cfg/config.conf")).toThrow(ConfigError);
  });

  it("reads empty and comment-only files as {}", () => {
    expect(parseConfigText("", yamlFile)).toEqual({});
    expect(parseConfigText("  \n", jsonFile)).toEqual({});
    expect(parseConfigText("# nothing yet\n", yamlFile)).toEqual({});
    expect(parseConfigText("// nothing yet\n/* still nothing */\n", jsonFile)).toEqual({});
    expect(parseConfigText("\ufeffa: 1\n", yamlFile)).toEqual({ a: 1 });
  });

  it("rejects a root that is not an object", () => {
    expect(parseError("- a\n- b\n", yamlFile).message).toBe("/cfg/openclaw.yaml: config root must be an object");
    expect(parseError("42", jsonFile).message).toBe("/cfg/openclaw.json: config root must be an object");
  });
});
