import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { waitUntil } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

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

  it("SIGUSR2 restarts the gateway in the same process; commands.restart: false refuses it", async () => {
    const gw = await startGateway({ stateDir: makeTempDir() });
    const listening = () => (gw.output().match(/"msg":"gateway listening"/g) ?? []).length;
    try {
      const { sock } = await openOperator(gw.url, gw.token);
      const shutdown = sock.waitFor((f) => f.type === "event" && f.event === "shutdown", 30_000);
      gw.proc.kill("SIGUSR2");
      expect((await shutdown).payload).toMatchObject({ restartExpectedMs: expect.any(Number) });
      await waitUntil(() => listening() === 2, 30_000, "the restarted gateway");
      expect(gw.proc.exitCode).toBeNull();
      const again = await openOperator(gw.url, gw.token);
      expect((await again.sock.request("health", {})).ok).toBe(true);
      again.sock.close();
    } finally {
      expect(await gw.stop()).toBe(0);
    }

    const off = await startGateway({ stateDir: makeTempDir(), configFile: { name: "openclaw.json", content: JSON.stringify({ commands: { restart: false } }) } });
    try {
      off.proc.kill("SIGUSR2");
      await off.waitForOutput(/SIGUSR2 restart refused: commands.restart is false/);
      expect((off.output().match(/"msg":"gateway listening"/g) ?? []).length).toBe(1);
      expect(off.proc.exitCode).toBeNull();
    } finally {
      expect(await off.stop()).toBe(0);
    }
  }, 90_000);

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
