import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkServiceStopTimeout } from "../../../src/cli/doctor/service-checks.js";
import { gatewayInstallCommand, gatewayUninstallCommand } from "../../../src/cli/service/service-command.js";
import { loadConfig } from "../../../src/config/index.js";
import { renderLaunchdPlist, renderSystemdUnit, type ServiceSpec } from "../../../src/cli/service/service-spec.js";
import { readInstalledStop } from "../../../src/cli/service/stop-timeout.js";

const spec: ServiceSpec = {
  node: "/opt/node 20/bin/node",
  script: "/srv/openclaw/dist/bin/openclaw.js",
  args: ["gateway", "run"],
  env: { MALLOC_ARENA_MAX: "2", OPENCLAW_STATE_DIR: "/home/a b/.openclaw" },
  workingDir: "/home/a b",
  logFile: "/home/a b/.openclaw/logs/gateway.out.log",
  stopTimeoutSec: 45,
};

describe("service files", () => {
  it("systemd: quotes paths with spaces", () => {
    const unit = renderSystemdUnit(spec);
    expect(unit).toContain('ExecStart="/opt/node 20/bin/node" /srv/openclaw/dist/bin/openclaw.js gateway run');
    expect(unit).toContain('Environment="OPENCLAW_STATE_DIR=/home/a b/.openclaw"');
    expect(unit).toMatch(/^TimeoutStopSec=45$/m);
  });

  it("launchd: program, MALLOC_ARENA_MAX and restart on failure (KeepAlive SuccessfulExit false)", () => {
    const plist = renderLaunchdPlist({ ...spec, env: { ...spec.env, X: "<&>" } });
    expect(plist).toContain("<string>/opt/node 20/bin/node</string>");
    expect(plist).toMatch(/<key>MALLOC_ARENA_MAX<\/key>\s*<string>2<\/string>/);
    expect(plist).toMatch(/<key>KeepAlive<\/key>\s*<dict>\s*<key>SuccessfulExit<\/key>\s*<false\/>/);
    expect(plist).toContain("<string>&lt;&amp;&gt;</string>");
    expect(plist).toMatch(/<key>ExitTimeOut<\/key>\s*<integer>45<\/integer>/);
  });

  it("macOS install writes the agent into ~/Library/LaunchAgents and bootstraps it with launchctl", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "launchd-"));
    const bin = path.join(home, "bin");
    fs.mkdirSync(bin);
    const record = path.join(home, "launchctl.log");
    fs.writeFileSync(path.join(bin, "launchctl"), `#!/bin/sh\necho "$*" >> "${record}"\n`, { mode: 0o755 });
    const env = { HOME: home, PATH: `${bin}:${process.env.PATH}`, OPENCLAW_STATE_DIR: path.join(home, ".openclaw") };
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => out.push(chunk) > 0) as typeof process.stdout.write;
    try {
      gatewayInstallCommand({}, "darwin", env);
      const plist = path.join(home, "Library", "LaunchAgents", "ai.openclaw.gateway.plist");
      expect(fs.readFileSync(plist, "utf8")).toContain("<string>ai.openclaw.gateway</string>");
      // launchd's own ExitTimeOut (20 s) would kill the gateway before a raised deadline: the plist sets it.
      expect(fs.readFileSync(plist, "utf8")).toMatch(/<key>ExitTimeOut<\/key>\s*<integer>30<\/integer>/);
      const doctorCtx = { env, stateDir: env.OPENCLAW_STATE_DIR, fix: false, timeoutMs: 1000, loaded: loadConfig({ stateDir: env.OPENCLAW_STATE_DIR, env, path: null }) };
      expect(checkServiceStopTimeout(doctorCtx, "darwin")).toMatchObject({
        status: "ok",
        message: `service ${plist}: ExitTimeOut=30 s covers the gateway's shutdown deadline (17.5 s)`,
      });
      doctorCtx.loaded.config.hooks = { internal: { timeoutMs: 30_000 } };
      expect(checkServiceStopTimeout(doctorCtx, "darwin")).toMatchObject({
        status: "warn",
        message: `service ${plist}: ExitTimeOut=30 s is shorter than the gateway's shutdown deadline (42.5 s, from hooks.internal.timeoutMs 30000) plus the 5 s margin; launchd kills the gateway before it logs what hung`,
        fix: "`openclaw gateway install --force` rewrites the service with ExitTimeOut=48, or lower hooks.internal.timeoutMs",
      });
      expect(fs.readFileSync(record, "utf8")).toMatch(/^bootstrap gui\/\d+ .*ai\.openclaw\.gateway\.plist$/m);
      gatewayUninstallCommand({}, "darwin", env);
      expect(fs.existsSync(plist)).toBe(false);
      expect(fs.readFileSync(record, "utf8")).toMatch(/^bootout gui\/\d+\/ai\.openclaw\.gateway$/m);
    } finally {
      process.stdout.write = write;
    }
    expect(out.join("")).toContain("launchd");
  });

  it("reads a unit's stop timeout as systemd does: spans, drop-ins in name order, TimeoutSec, an empty reset", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unit-"));
    const unit = path.join(dir, "openclaw-gateway.service");
    fs.writeFileSync(unit, "[Service]\nEnvironment=MALLOC_ARENA_MAX=2 OPENCLAW_SHUTDOWN_TIMEOUT_MS=60000\nTimeoutStopSec=1min 30s\n");
    expect(readInstalledStop("systemd", unit)).toEqual({ stopTimeoutSec: 90, shutdownTimeoutEnv: "60000" });
    fs.mkdirSync(`${unit}.d`);
    fs.writeFileSync(path.join(`${unit}.d`, "b.conf"), "[Service]\nTimeoutSec=infinity\n");
    fs.writeFileSync(path.join(`${unit}.d`, "a.conf"), '[Service]\nTimeoutStopSec=45s\nEnvironment="OPENCLAW_SHUTDOWN_TIMEOUT_MS=1000"\n');
    expect(readInstalledStop("systemd", unit)).toEqual({ stopTimeoutSec: Number.POSITIVE_INFINITY, shutdownTimeoutEnv: "1000" });
    fs.writeFileSync(path.join(`${unit}.d`, "c.conf"), "[Service]\nTimeoutStopSec=\n");
    expect(readInstalledStop("systemd", unit).stopTimeoutSec).toBe(90); // systemd's default
    fs.writeFileSync(unit, "[Service]\n");
    fs.rmSync(`${unit}.d`, { recursive: true });
    expect(readInstalledStop("systemd", unit)).toEqual({ stopTimeoutSec: 90, shutdownTimeoutEnv: undefined });
    const plist = path.join(dir, "agent.plist");
    fs.writeFileSync(plist, "<plist><dict></dict></plist>");
    expect(readInstalledStop("launchd", plist).stopTimeoutSec).toBe(20); // launchd's default ExitTimeOut
  });

  it("refuses platforms without a supported service manager", () => {
    expect(() => gatewayInstallCommand({}, "win32", {})).toThrow(/Linux \(systemd\) and macOS \(launchd\)/);
  });
});
