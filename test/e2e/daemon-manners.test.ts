import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";

describe("daemon manners", () => {
  it("SIGHUP reloads the config (also with hot reload off) and the gateway keeps running", async () => {
    const stateDir = makeTempDir();
    const file = path.join(stateDir, "openclaw.yaml");
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.yaml", content: "gateway:\n  reload:\n    mode: off\n" } });
    try {
      const models = () => fetch(`${gw.httpUrl}/v1/models`, { headers: { authorization: `Bearer ${gw.token}` } });
      expect((await models()).status).toBe(404);
      fs.writeFileSync(file, "gateway:\n  reload:\n    mode: off\n  http:\n    endpoints:\n      chatCompletions:\n        enabled: true\n");
      gw.proc.kill("SIGHUP");
      await gw.waitForOutput(/"msg":"config reloaded"/);
      expect((await models()).status).toBe(200);

      fs.writeFileSync(file, "gateway:\n  port: nope\n");
      gw.proc.kill("SIGHUP");
      await gw.waitForOutput(/config reload skipped \(invalid config\)/);
      expect((await models()).status).toBe(200);
      expect(gw.proc.exitCode).toBeNull();
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it("an unknown gateway subcommand is an error with the nearest command, not an argument of run", async () => {
    const res = await runCli(["gateway", "strat"], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(res.code).toBe(1);
    expect(res.output).toContain("unknown command 'gateway strat' (did you mean 'gateway start'?)");
    expect(res.output).not.toContain("gateway listening");
    const top = await runCli(["agnet"], {});
    expect(top.code).toBe(1);
    expect(top.output).toContain("(Did you mean agent?)");
  });

  it("--timeout is in seconds everywhere", async () => {
    const stateDir = makeTempDir();
    const bad = await runCli(["health", "--timeout", "10000ms"], { OPENCLAW_STATE_DIR: stateDir });
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('--timeout: expected a positive number of seconds, got "10000ms"');
    for (const args of [
      ["gateway", "status", "--help"],
      ["gateway", "stop", "--help"],
      ["health", "--help"],
      ["agent", "--help"],
    ]) {
      const help = await runCli(args, {});
      expect(help.output).toContain("--timeout <seconds>");
    }
  }, 120_000);
});
