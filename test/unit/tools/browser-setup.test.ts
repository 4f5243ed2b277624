import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findChromiumBinary } from "../../../src/agents/tools/browser/browser-binary.js";
import { resolveHeadless } from "../../../src/agents/tools/browser/browser-service.js";
import { browserSetup, browserUserDataDir } from "../../../src/agents/tools/browser/browser-setup.js";
import { prepareTurnSandbox } from "../../../src/agents/sandbox/turn-sandbox.js";
import { restartRequiredPaths, validateConfig } from "../../../src/config/index.js";
import { makeTempDir } from "../config/temp-dir.js";

function executable(dir: string, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, "#!/bin/sh\n", { mode: 0o755 });
  return file;
}

describe("browser setup", () => {
  it("is offered unless browser.enabled is false, with the configured binary", () => {
    const chrome = executable(makeTempDir(), "chrome");
    const { config } = validateConfig({ browser: { executablePath: chrome, headless: true, noSandbox: true, ssrfPolicy: { allowedHostnames: ["127.0.0.1"] } } });
    expect(browserSetup(config)).toEqual({
      settings: {
        executablePath: chrome,
        headless: true,
        noSandbox: true,
        ssrfPolicy: { allowPrivateNetwork: false, allowedHostnames: ["127.0.0.1"], allowRfc2544BenchmarkRange: false, allowIpv6UniqueLocalRange: false },
      },
    });
    expect(browserSetup(validateConfig({ browser: { enabled: false, executablePath: chrome } }).config)).toEqual({ problem: "browser.enabled is false" });
  });

  it("a configured path that is not an executable file offers no browser, saying why", () => {
    const dir = makeTempDir();
    const plain = path.join(dir, "not-executable");
    fs.writeFileSync(plain, "", { mode: 0o644 });
    expect(findChromiumBinary(plain)).toEqual({ problem: `browser.executablePath ${plain} is not an executable file` });
    expect(findChromiumBinary(dir)).toMatchObject({ problem: expect.stringContaining("is not an executable file") });
    expect(browserSetup(validateConfig({ browser: { executablePath: plain } }).config)).toMatchObject({ problem: expect.stringContaining(plain) });
    // A platform with no known install places finds nothing and says how to fix it.
    expect(findChromiumBinary(undefined, "aix")).toEqual({ problem: "no Chrome, Brave, Edge or Chromium binary was found; install one or set browser.executablePath" });
  });

  it("headless: as configured; unset, headless exactly when a Linux host has no display; headed without a display is refused up front", () => {
    expect(resolveHeadless(undefined, {}, "linux")).toEqual({ headless: true });
    expect(resolveHeadless(undefined, { DISPLAY: ":0" }, "linux")).toEqual({ headless: false });
    expect(resolveHeadless(undefined, { WAYLAND_DISPLAY: "wayland-0" }, "linux")).toEqual({ headless: false });
    expect(resolveHeadless(undefined, {}, "darwin")).toEqual({ headless: false });
    expect(resolveHeadless(true, { DISPLAY: ":0" }, "linux")).toEqual({ headless: true });
    expect(resolveHeadless(false, {}, "linux")).toEqual({ problem: expect.stringContaining("browser.headless is false but this host has no display") });
  });

  it("the managed profile lives under the state dir", () => {
    expect(browserUserDataDir("/state")).toBe(path.join("/state", "browser", "openclaw", "user-data"));
  });

  it("OpenClaw's browser keys that do nothing here are dropped with a warning naming why", () => {
    const { config, warnings } = validateConfig({
      browser: { cdpUrl: "http://10.0.0.42:9222", profiles: { work: { cdpPort: 18801 } }, evaluateEnabled: false, tabCleanup: { enabled: true }, headless: true },
    });
    expect(warnings).toEqual([
      "browser.cdpUrl was ignored: remote CDP browsers are not supported: the gateway launches its own managed browser (remove it)",
      "browser.profiles was ignored: only the managed openclaw profile exists here (no extra profiles, no existing-session attach) (remove it)",
      "browser.evaluateEnabled was ignored: act:evaluate (page JavaScript) is not offered here, so there is nothing to switch (remove it)",
      "browser.tabCleanup was ignored: idle and per-session tab sweeps are not run here (remove it)",
    ]);
    expect(config.browser).toEqual({ headless: true });
  });

  it("a browser.* change needs a restart", () => {
    expect(restartRequiredPaths(["browser.enabled", "browser.ssrfPolicy.allowedHostnames", "tools.profile"])).toEqual(["browser.enabled", "browser.ssrfPolicy.allowedHostnames"]);
  });

  it("no sandboxed run gets the browser, whatever the sandbox's tool lists allow", () => {
    const workspace = makeTempDir();
    const turn = (workspaceAccess: string) =>
      prepareTurnSandbox({
        config: validateConfig({ agents: { defaults: { sandbox: { mode: "all", workspaceAccess } } }, tools: { sandbox: { tools: { allow: ["*"] } } } }).config,
        agentId: "main",
        sessionKey: "agent:main:x",
        workspaceDir: workspace,
        stateDir: makeTempDir(),
        env: process.env,
      }).withheld;
    expect(turn("rw")).toEqual({ tools: ["browser"], reason: "no sandbox browser is supported here" });
    expect(turn("ro")?.tools).toContain("browser");
  });
});
