import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigBaseHashRequiredError,
  ConfigConflictError,
  ConfigError,
  hashConfigBytes,
  patchConfigFile,
  readConfigFileSnapshot,
  REDACTED,
  replaceConfigFile,
} from "../../../src/config/index.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

const YAML = `# my gateway
gateway:
  mode: local
  auth:
    token: s3cret-token-value # the shared token
logging:
  level: info # quiet
`;

const hashOf = (file: string) => hashConfigBytes(fs.readFileSync(file));

describe("readConfigFileSnapshot", () => {
  it("redacts secrets in raw, parsed and config while YAML keeps its comments", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", YAML);
    const snap = readConfigFileSnapshot(file, {});
    expect(snap.exists).toBe(true);
    expect(snap.valid).toBe(true);
    expect(snap.format).toBe("yaml");
    expect(snap.hash).toBe(hashOf(file));
    expect(snap.raw).toContain("# the shared token");
    expect(snap.raw).toContain(REDACTED);
    expect(JSON.stringify(snap)).not.toContain("s3cret-token-value");
    expect((snap.parsed as any).gateway.auth.token).toBe(REDACTED);
    expect(snap.config!.logging?.level).toBe("info");
  });

  it("hides every value of an environment map in the YAML text too, whatever the variable's name", () => {
    const yaml = `env:
  vars:
    DATABASE_URL: postgres://u:db-password-1@h/db # the app database
mcp:
  servers:
    files: { command: /bin/mcp, env: { CONNECTION: conn-secret-2 } }
models:
  providers:
    local:
      baseUrl: http://127.0.0.1:8000/v1
      localService:
        command: /opt/llama/server
        env:
          HF_HOME: /cache
          MODEL_URL: https://u:model-secret-3@h/m
`;
    const snap = readConfigFileSnapshot(writeFile(makeTempDir(), "openclaw.yaml", yaml), {});
    expect(snap.valid, JSON.stringify(snap.issues)).toBe(true);
    for (const secret of ["db-password-1", "conn-secret-2", "model-secret-3", "/cache"]) expect(snap.raw).not.toContain(secret);
    expect(snap.raw).toContain("# the app database");
    expect(snap.raw).toContain("command: /opt/llama/server");
  });

  it("reports an invalid file with the key path and without its text", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "gateway:\n  bind: everywhere\n");
    const snap = readConfigFileSnapshot(file, {});
    expect(snap.valid).toBe(false);
    expect(snap.issues[0]!.path).toBe("gateway.bind");
    expect(snap.config).toBeNull();
  });

  it("describes a missing file as empty and valid", () => {
    const snap = readConfigFileSnapshot(path.join(makeTempDir(), "openclaw.yaml"), {});
    expect(snap).toMatchObject({ exists: false, valid: true, raw: null, hash: null });
  });
});

describe("replaceConfigFile", () => {
  it("writes a valid replacement, keeps the secret the editor left redacted, and returns the new hash", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", YAML);
    const snap = readConfigFileSnapshot(file, {});
    const edited = snap.raw!.replace("level: info", "level: debug");
    const result = replaceConfigFile(file, edited, { baseHash: snap.hash!, env: {} });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("level: debug # quiet");
    expect(text).toContain("s3cret-token-value");
    expect(text).not.toContain(REDACTED);
    expect(result.hash).toBe(hashOf(file));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("rejects an invalid edit at its key path and writes nothing", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", YAML);
    const before = fs.readFileSync(file, "utf8");
    let error: unknown;
    try {
      replaceConfigFile(file, "gateway:\n  mode: local\n  port: 99999\n", { baseHash: hashOf(file), env: {} });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues[0]!.path).toBe("gateway.port");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["openclaw.yaml"]);
  });

  it("gives the second of two editors working from the same hash a conflict", () => {
    const file = writeFile(makeTempDir(), "openclaw.json", '{ "gateway": { "mode": "local" } }\n');
    const base = hashOf(file);
    replaceConfigFile(file, '{ gateway: { mode: "local" }, logging: { level: "debug" } }', { baseHash: base, env: {} });
    const first = fs.readFileSync(file, "utf8");
    expect(() => replaceConfigFile(file, '{ logging: { level: "warn" } }', { baseHash: base, env: {} })).toThrow(ConfigConflictError);
    expect(fs.readFileSync(file, "utf8")).toBe(first);
  });

  it("needs a baseHash once the file exists, and none to create it", () => {
    const dir = makeTempDir();
    const file = path.join(dir, "openclaw.json");
    replaceConfigFile(file, "{ logging: { level: 'warn' } }", { env: {} });
    expect(
      JSON.parse(
        fs
          .readFileSync(file, "utf8")
          .replace(/'/g, '"')
          .replace(/(\w+):/g, '"$1":'),
      ),
    ).toEqual({ logging: { level: "warn" } });
    expect(() => replaceConfigFile(file, "{}", { env: {} })).toThrow(ConfigBaseHashRequiredError);
  });

  it("keeps JSON5 comments when it restores a redacted secret", () => {
    const file = writeFile(makeTempDir(), "openclaw.json5", "{\n  // keep me\n  gateway: { auth: { token: 'abc-secret' } },\n}\n");
    const snap = readConfigFileSnapshot(file, {});
    expect(snap.raw).not.toContain("abc-secret");
    replaceConfigFile(file, `{\n  // keep me\n  gateway: { auth: { token: '${REDACTED}' } }, logging: { level: 'debug' },\n}\n`, { baseHash: snap.hash!, env: {} });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("// keep me");
    expect(text).toContain('"abc-secret"');
  });

  it("refuses a redaction marker where the file has nothing to keep", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "gateway:\n  mode: local\n");
    expect(() => replaceConfigFile(file, `gateway:\n  auth:\n    password: ${REDACTED}\n`, { baseHash: hashOf(file), env: {} })).toThrow(/gateway\.auth\.password/);
  });
});

describe("patchConfigFile", () => {
  it("merges into a YAML file keeping comments; null deletes a key", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", YAML);
    patchConfigFile(file, "{ logging: { level: 'debug' }, gateway: { auth: { token: null } } }", { baseHash: hashOf(file), env: {} });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("# my gateway");
    expect(text).toContain("level: debug # quiet");
    expect(text).not.toContain("s3cret-token-value");
  });

  it("refuses to drop list entries unless the path is in replacePaths", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", "logging:\n  redactPatterns: [a, b]\n");
    const patch = "{ logging: { redactPatterns: ['a'] } }";
    expect(() => patchConfigFile(file, patch, { baseHash: hashOf(file), env: {} })).toThrow(/logging\.redactPatterns.*replacePaths/);
    patchConfigFile(file, patch, { baseHash: hashOf(file), env: {}, replacePaths: ["logging.redactPatterns"] });
    expect(fs.readFileSync(file, "utf8")).toMatch(/redactPatterns:\s+- a\n$/);
  });

  it("a new object's null keys are left out of the file, as of the data it validated, in YAML and JSON alike; so are a replaced object's", () => {
    const dir = makeTempDir();
    for (const name of ["openclaw.yaml", "openclaw.json"]) {
      const file = writeFile(dir, name, name.endsWith(".yaml") ? YAML : `${JSON.stringify({ logging: { level: "info", redactPatterns: ["x"] } })}\n`);
      patchConfigFile(file, "{ session: { dmScope: 'main', idleMinutes: null }, logging: { level: 'debug', redactPatterns: null } }", {
        baseHash: hashOf(file),
        env: {},
        replaceWholePaths: ["logging"],
      });
      const written = readConfigFileSnapshot(file, {}).parsed as Record<string, Record<string, unknown>>;
      expect(written.session).toEqual({ dmScope: "main" });
      expect(written.logging).toEqual({ level: "debug" });
      expect(fs.readFileSync(file, "utf8")).not.toMatch(/idleMinutes|redactPatterns|null/);
    }
  });

  it("validates the merged result", () => {
    const file = writeFile(makeTempDir(), "openclaw.yaml", YAML);
    const before = fs.readFileSync(file, "utf8");
    expect(() => patchConfigFile(file, "{ logging: { level: 'loud' } }", { baseHash: hashOf(file), env: {} })).toThrow(/logging\.level/);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });
});
