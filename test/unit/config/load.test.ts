import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, defaultConfig, loadConfig } from "../../../src/config/index.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

// The configuration the benchmarks run with; it must load cleanly, as JSON5 text in a .json file.
const BENCH_CONFIG = `{ "gateway": { "mode": "local", "bind": "loopback", "port": 18789,
    "auth": { "mode": "token", "token": "bench-token" },
    "http": { "endpoints": { "chatCompletions": { "enabled": true } } } },
  "logging": { "file": "/some/dir/gateway.log" },
  "agents": { "defaults": { "workspace": "/some/dir/workspace", "model": { "primary": "fake/fake-model" } } },
  "models": { "mode": "merge", "providers": { "fake": { "baseUrl": "http://127.0.0.1:18999/v1",
    "apiKey": "sk-local", "api": "openai-completions",
    "models": [ { "id": "fake-model", "name": "Fake Model", "reasoning": false, "input": ["text"],
      "cost": { "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0 },
      "contextWindow": 120000, "maxTokens": 8192 } ] } } } }
`;

describe("loadConfig", () => {
  it("loads the benchmark config with no warnings", () => {
    const state = makeTempDir();
    const file = writeFile(state, "openclaw.json", BENCH_CONFIG);
    const loaded = loadConfig({ stateDir: state, env: {} });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.path).toBe(file);
    expect(loaded.hash).toBe(createHash("sha256").update(fs.readFileSync(file)).digest("hex"));
    expect(loaded.config.gateway.http.endpoints.chatCompletions.enabled).toBe(true);
    expect(loaded.config.gateway.auth).toMatchObject({ mode: "token", token: "bench-token" });
    expect(loaded.config.models.providers?.fake?.models?.[0]?.contextWindow).toBe(120000);
    expect(loaded.config.agents.defaults.model).toEqual({ primary: "fake/fake-model" });
  });

  it("uses embedded defaults when there is no file", () => {
    const loaded = loadConfig({ stateDir: makeTempDir(), env: {} });
    expect(loaded).toEqual({ config: defaultConfig(), path: null, hash: null, warnings: [] });
    expect(loadConfig({ stateDir: makeTempDir(), env: {}, path: null }).path).toBeNull();
  });

  it("fails when OPENCLAW_CONFIG_PATH names a missing file", () => {
    const missing = path.join(makeTempDir(), "nope.yaml");
    const attempt = () => loadConfig({ stateDir: makeTempDir(), env: { OPENCLAW_CONFIG_PATH: missing } });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(expect.objectContaining({ message: `config file not found: ${missing}`, filePath: missing }));
  });

  it("reads OPENCLAW_CONFIG_PATH before the state dir, and an explicit path before both", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.yaml", "gateway:\n  port: 1001\n");
    const other = writeFile(makeTempDir(), "custom.json5", "{gateway: {port: 1002}}");
    const explicit = writeFile(makeTempDir(), "x.yml", "gateway:\n  port: 1003\n");
    expect(loadConfig({ stateDir: state, env: {} }).config.gateway.port).toBe(1001);
    expect(loadConfig({ stateDir: state, env: { OPENCLAW_CONFIG_PATH: other } }).config.gateway.port).toBe(1002);
    expect(loadConfig({ stateDir: state, env: { OPENCLAW_CONFIG_PATH: other }, path: explicit }).config.gateway.port).toBe(1003);
  });

  it("warns when another config file in the state dir is shadowed", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.yaml", "");
    const json = writeFile(state, "openclaw.json", "{}");
    expect(loadConfig({ stateDir: state, env: {} }).warnings).toEqual([`config file ${json} is ignored because openclaw.yaml takes precedence`]);
  });

  it("attaches the file path to validation errors and keeps the message key-first", () => {
    const state = makeTempDir();
    const file = writeFile(state, "openclaw.yaml", "gateway:\n  port: 99999\n");
    try {
      loadConfig({ stateDir: state, env: {} });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message).toBe("gateway.port: expected integer 1-65535");
      expect((err as ConfigError).filePath).toBe(file);
    }
  });

  it("treats unknown keys and empty values in channel accounts, Telegram groups and topics as it does one level up", () => {
    const state = makeTempDir();
    const yaml = [
      "channels:",
      "  telegram:",
      "    requireMenton: false",
      "    accounts:",
      "      a:",
      "        requireMenton: false",
      "        historyLimit:",
      "      b:",
      "    groups:",
      '      "-100":',
      "        requireMenton: true",
      "        enabled:",
      "        topics:",
      '          "7":',
      "            agentid: ops",
      "            requireMention:",
      '      "-200":',
      "",
    ].join("\n");
    writeFile(state, "openclaw.yaml", yaml);
    const { config, warnings } = loadConfig({ stateDir: state, env: {} });
    expect(warnings).toEqual([
      'unknown config key "channels.telegram.requireMenton" (ignored; did you mean "channels.telegram.requireMention"?)',
      'unknown config key "channels.telegram.accounts.a.requireMenton" (ignored; did you mean "channels.telegram.accounts.a.requireMention"?)',
      'unknown config key "channels.telegram.groups.-100.requireMenton" (ignored; did you mean "channels.telegram.groups.-100.requireMention"?)',
      'unknown config key "channels.telegram.groups.-100.topics.7.agentid" (ignored; did you mean "channels.telegram.groups.-100.topics.7.agentId"?)',
    ]);
    expect(config.channels?.telegram?.accounts).toEqual({ a: {}, b: {} });
    expect(config.channels?.telegram?.groups).toEqual({ "-100": { topics: { "7": {} } }, "-200": {} });
  });

  it("reports a directory in place of the file", () => {
    const dir = makeTempDir();
    expect(() => loadConfig({ stateDir: dir, env: {}, path: dir })).toThrow(`config path is not a regular file: ${dir}`);
  });
});
