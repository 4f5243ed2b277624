import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfigPathForWrite, resolveConfigPath, resolveStateDir } from "../../../src/config/index.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

describe("resolveStateDir", () => {
  it("prefers OPENCLAW_STATE_DIR, then OPENCLAW_HOME/.openclaw, then ~/.openclaw", () => {
    const env = { OPENCLAW_STATE_DIR: "/srv/state", OPENCLAW_HOME: "/srv/home", HOME: "/home/u" };
    expect(resolveStateDir(env)).toBe("/srv/state");
    expect(resolveStateDir({ ...env, OPENCLAW_STATE_DIR: "" })).toBe("/srv/home/.openclaw");
    expect(resolveStateDir({ HOME: "/home/u" })).toBe("/home/u/.openclaw");
    expect(resolveStateDir({})).toBe(path.join(os.homedir(), ".openclaw"));
  });

  it("expands ~ and makes relative paths absolute, without creating anything", () => {
    expect(resolveStateDir({ OPENCLAW_STATE_DIR: "~/alt", HOME: "/home/u" })).toBe("/home/u/alt");
    expect(resolveStateDir({ OPENCLAW_HOME: "~", HOME: "/home/u" })).toBe("/home/u/.openclaw");
    const relative = resolveStateDir({ OPENCLAW_STATE_DIR: "rel/state-that-does-not-exist" });
    expect(relative).toBe(path.resolve("rel/state-that-does-not-exist"));
    expect(fs.existsSync(relative)).toBe(false);
  });
});

describe("resolveConfigPath", () => {
  it("returns OPENCLAW_CONFIG_PATH even when the file does not exist", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.yaml", "");
    expect(resolveConfigPath(state, { OPENCLAW_CONFIG_PATH: "/nowhere/openclaw.json" })).toBe("/nowhere/openclaw.json");
    expect(resolveConfigPath(state, { OPENCLAW_CONFIG_PATH: "~/c.yaml", HOME: "/home/u" })).toBe("/home/u/c.yaml");
  });

  it("picks the first existing of openclaw.yaml, .yml, .json, .json5", () => {
    const state = makeTempDir();
    expect(resolveConfigPath(state, {})).toBeNull();
    writeFile(state, "openclaw.json5", "{}");
    expect(resolveConfigPath(state, {})).toBe(path.join(state, "openclaw.json5"));
    writeFile(state, "openclaw.json", "{}");
    expect(resolveConfigPath(state, {})).toBe(path.join(state, "openclaw.json"));
    writeFile(state, "openclaw.yml", "");
    expect(resolveConfigPath(state, {})).toBe(path.join(state, "openclaw.yml"));
    writeFile(state, "openclaw.yaml", "");
    expect(resolveConfigPath(state, {})).toBe(path.join(state, "openclaw.yaml"));
  });

  it("skips a directory that happens to carry a config file name", () => {
    const state = makeTempDir();
    fs.mkdirSync(path.join(state, "openclaw.yaml"));
    writeFile(state, "openclaw.json", "{}");
    expect(resolveConfigPath(state, {})).toBe(path.join(state, "openclaw.json"));
  });

  it("writes new configs to <state>/openclaw.yaml", () => {
    expect(defaultConfigPathForWrite("/srv/state")).toBe("/srv/state/openclaw.yaml");
  });
});
