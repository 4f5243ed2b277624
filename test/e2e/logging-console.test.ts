import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir, spawnCli, startGateway, type CliProcess, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * `logging.consoleLevel` and `logging.consoleStyle` on a real gateway: the console and the log file
 * each keep their own level (also after a config reload), and the console's style is chosen by the
 * config rather than by whether stdout is a terminal.
 */

const gateways: (GatewayProcess | CliProcess)[] = [];
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.stop();
});

async function gatewayWith(logging: Record<string, unknown>): Promise<{ gw: GatewayProcess; file: () => string; configFile: string }> {
  const stateDir = makeTempDir();
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify({ logging }) } });
  gateways.push(gw);
  return { gw, file: () => fs.readFileSync(path.join(stateDir, "logs", "gateway.log"), "utf8"), configFile: path.join(stateDir, "openclaw.json") };
}

describe("logging.consoleLevel and consoleStyle", { timeout: 60_000 }, () => {
  it("the console logs at its own level while the file keeps logging.level, and a reload changes both", async () => {
    const { gw, file, configFile } = await gatewayWith({ level: "warn", consoleLevel: "info" });
    expect(gw.output()).toMatch(/"msg":"gateway listening"/);
    expect(file()).not.toContain("gateway listening");
    fs.writeFileSync(configFile, JSON.stringify({ logging: { level: "info", consoleLevel: "warn" } }));
    // The reload's own info line goes to the file now, not to the console.
    await expect.poll(() => file().includes('"msg":"config reloaded"'), { timeout: 20_000 }).toBe(true);
    expect(gw.output()).not.toContain('"msg":"config reloaded"');
  });

  it("consoleStyle pretty prints one-liners even when stdout is not a terminal; the file stays JSON", async () => {
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ logging: { consoleStyle: "pretty" } }));
    const gw = spawnCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "pretty-token" });
    gateways.push(gw);
    const line = await gw.waitForOutput(/^.*gateway listening.*$/m, 15_000);
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}(\.\d+)?\] INFO.*: gateway listening/);
    expect(line).not.toContain('"msg"');
    const first = fs
      .readFileSync(path.join(stateDir, "logs", "gateway.log"), "utf8")
      .trim()
      .split("\n")[0]!;
    expect(JSON.parse(first)).toHaveProperty("msg");
  });
});
