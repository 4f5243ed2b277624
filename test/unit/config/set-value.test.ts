import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseCliValue, setConfigValueInFile } from "../../../src/config/index.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

const COMMENTED_YAML = `# My gateway, edited by hand.
gateway:
  # Reachable from the LAN on purpose.
  bind: lan
  port: 18789 # keep in sync with the firewall
  auth:
    token: \${GW_TOKEN}
logging:
  level: info # quieter please
`;

describe("setConfigValueInFile (YAML)", () => {
  it("changes only the key and keeps every comment", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", COMMENTED_YAML);
    setConfigValueInFile(file, "gateway.port", 19000, { GW_TOKEN: "t" });
    setConfigValueInFile(file, "models.providers.fake.apiKey", "${FAKE_KEY}", { GW_TOKEN: "t", FAKE_KEY: "k" });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("# My gateway, edited by hand.");
    expect(text).toContain("# Reachable from the LAN on purpose.");
    expect(text).toContain("port: 19000 # keep in sync with the firewall");
    expect(text).toContain("level: info # quieter please");
    expect(text).toContain("token: ${GW_TOKEN}"); // raw value kept, never expanded on write
    expect(text).toContain("apiKey: ${FAKE_KEY}");
    const loaded = loadConfig({ stateDir: path.dirname(file), env: { GW_TOKEN: "t", FAKE_KEY: "k" } });
    expect(loaded.config.gateway.port).toBe(19000);
    expect(loaded.config.models.providers?.fake?.apiKey).toBe("k");
  });

  it("rejects an invalid value and leaves the file byte-identical", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", COMMENTED_YAML);
    fs.chmodSync(file, 0o644);
    const before = fs.readFileSync(file);
    expect(() => setConfigValueInFile(file, "gateway.port", 70000, {})).toThrow("gateway.port: expected integer 1-65535");
    expect(() => setConfigValueInFile(file, "gateway.bind", "everywhere", {})).toThrow(ConfigError);
    expect(() => setConfigValueInFile(file, "gateway.bind.host", "x", {})).toThrow("cannot set gateway.bind.host: gateway.bind is a string, not an object");
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(modeOf(file)).toBe(0o644);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["openclaw.yaml"]); // no temp file left behind
  });

  it("creates a missing file (and its directory) with mode 0600", () => {
    const file = path.join(makeTempDir(), "state", "openclaw.yaml");
    setConfigValueInFile(file, "gateway.auth.token", "secret-token", {});
    expect(modeOf(file)).toBe(0o600);
    expect(loadConfig({ stateDir: path.dirname(file), env: {} }).config.gateway.auth.token).toBe("secret-token");
  });

  it("rewrites an existing file with mode 0600", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "gateway:\n  port: 1\n");
    fs.chmodSync(file, 0o644);
    setConfigValueInFile(file, "gateway.port", 2, {});
    expect(modeOf(file)).toBe(0o600);
  });

  it("creates arrays for index segments and appends at the end only", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "");
    setConfigValueInFile(file, "agents.list[0]", { id: "main", default: true }, {});
    setConfigValueInFile(file, "agents.list[1].id", "ops", {});
    setConfigValueInFile(file, 'agents.defaults.models["openai/gpt-4.1"].alias', "gpt", {});
    expect(() => setConfigValueInFile(file, "agents.list[5].id", "x", {})).toThrow(/index 5 is past the end of agents\.list/);
    const config = loadConfig({ stateDir: path.dirname(file), env: {} }).config;
    expect(config.agents.list).toEqual([{ id: "main", default: true }, { id: "ops" }]);
    expect(config.agents.defaults.models).toEqual({ "openai/gpt-4.1": { alias: "gpt" } });
  });

  it("writes through a symlink instead of replacing it", () => {
    const dir = makeTempDir();
    const real = writeFile(dir, "real.yaml", "gateway:\n  port: 1\n");
    const link = path.join(dir, "openclaw.yaml");
    fs.symlinkSync(real, link);
    setConfigValueInFile(link, "gateway.port", 2, {});
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, "utf8")).toContain("port: 2");
  });

  it("refuses a key the schema does not know and writes nothing; an unknown key the file holds stays, with a warning", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "");
    expect(() => setConfigValueInFile(file, "gatway.port", 1, {})).toThrow(/gatway: not a config key this gateway knows; did you mean "gateway"\?/);
    expect(fs.readFileSync(file, "utf8")).toBe("");
    const held = writeFile(makeTempDir(), "openclaw.yaml", "gatway:\n  port: 1\n");
    expect(setConfigValueInFile(held, "gateway.port", 2, {})).toEqual({ warnings: ['unknown config key "gatway" (ignored; did you mean "gateway"?)'] });
    expect(fs.readFileSync(held, "utf8")).toBe("gatway:\n  port: 1\ngateway:\n  port: 2\n");
  });

  it("refuses a broken file and bad key paths", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "gateway:\n  port: 1\n bind: lan\n");
    expect(() => setConfigValueInFile(file, "gateway.port", 2, {})).toThrow(/openclaw\.yaml:3:1: /);
    expect(() => setConfigValueInFile(file, "", 2, {})).toThrow(ConfigError);
    expect(() => setConfigValueInFile(file, "a..b", 2, {})).toThrow('invalid key path "a..b"');
    expect(() => setConfigValueInFile(file, "__proto__.polluted", 2, {})).toThrow(ConfigError);
  });
});

describe("setConfigValueInFile (JSON/JSON5)", () => {
  it("rewrites JSON5 as 2-space JSON and validates first", () => {
    const file = writeFile(makeTempDir(), "openclaw.json5", "// comment\n{ gateway: { port: 1, }, }\n");
    setConfigValueInFile(file, "gateway.http.endpoints.chatCompletions.enabled", true, {});
    expect(fs.readFileSync(file, "utf8")).toBe(
      '{\n  "gateway": {\n    "port": 1,\n    "http": {\n      "endpoints": {\n        "chatCompletions": {\n          "enabled": true\n        }\n      }\n    }\n  }\n}\n',
    );
    const before = fs.readFileSync(file);
    expect(() => setConfigValueInFile(file, "gateway.auth.password", "p", {})).not.toThrow();
    expect(() => setConfigValueInFile(file, "gateway.auth.token", "t", {})).toThrow("gateway.auth.mode: required when both token and password are set");
    expect(fs.readFileSync(file).equals(before)).toBe(false); // the password write went through
    expect(modeOf(file)).toBe(0o600);
  });
});

describe("parseCliValue", () => {
  it("parses JSON5 when it can and falls back to the raw text", () => {
    expect(parseCliValue("18789")).toBe(18789);
    expect(parseCliValue("true")).toBe(true);
    expect(parseCliValue("null")).toBeNull();
    expect(parseCliValue("[a]")).toBe("[a]");
    expect(parseCliValue('["a", "b"]')).toEqual(["a", "b"]);
    expect(parseCliValue("{enabled: true}")).toEqual({ enabled: true });
    expect(parseCliValue("'quoted'")).toBe("quoted");
    expect(parseCliValue("loopback")).toBe("loopback");
    expect(parseCliValue("${TOKEN}")).toBe("${TOKEN}");
    expect(parseCliValue("")).toBe("");
  });
});
