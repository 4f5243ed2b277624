import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AutoTtsPreference, effectiveAutoTts } from "../../../src/agents/speech/index.js";
import { validateConfig } from "../../../src/config/index.js";

const config = (tts: Record<string, unknown>) => validateConfig({ tts }, { OPENAI_API_KEY: "sk" }).config;

describe("the Auto-TTS mode a reply follows", () => {
  it("is the chat's own choice, else the gateway's (tts.enable/tts.disable), else the config's", () => {
    expect(effectiveAutoTts(config({ auto: "inbound" }), "off", "always")).toEqual({ mode: "off", source: "chat" });
    expect(effectiveAutoTts(config({ auto: "inbound" }), undefined, "always")).toEqual({ mode: "always", source: "gateway" });
    expect(effectiveAutoTts(config({ auto: "inbound" }), undefined, undefined)).toEqual({ mode: "inbound", source: "config" });
    expect(effectiveAutoTts(config({}), "tagged", undefined)).toEqual({ mode: "off", source: "config" });
  });
});

describe("the gateway's Auto-TTS preference file", () => {
  const stateDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "tts-pref-"));

  it("is none until set; a set mode is written 0600 in OpenClaw's shape and read back by a fresh process's reader", () => {
    const dir = stateDir();
    const preference = AutoTtsPreference.forStateDir(dir);
    expect(preference.mode()).toBeUndefined();
    preference.set("always");
    expect(preference.mode()).toBe("always");
    expect(JSON.parse(fs.readFileSync(preference.file, "utf8"))).toEqual({ tts: { auto: "always" } });
    expect(fs.statSync(preference.file).mode & 0o777).toBe(0o600);
    expect(AutoTtsPreference.forStateDir(dir)).toBe(preference);
  });

  it("reads OpenClaw's older enabled boolean, and takes an unreadable file as no preference", () => {
    const older = stateDir();
    fs.mkdirSync(path.join(older, "settings"));
    fs.writeFileSync(path.join(older, "settings", "tts.json"), JSON.stringify({ tts: { enabled: false } }));
    expect(AutoTtsPreference.forStateDir(older).mode()).toBe("off");
    const broken = stateDir();
    fs.mkdirSync(path.join(broken, "settings"));
    fs.writeFileSync(path.join(broken, "settings", "tts.json"), "{ not json");
    expect(AutoTtsPreference.forStateDir(broken).mode()).toBeUndefined();
  });
});
