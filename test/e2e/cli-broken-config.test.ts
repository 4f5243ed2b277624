import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

// A gateway runs on its old config while the file is broken: the commands that only need its
// port and token must still reach it, with a warning naming the broken key.
describe("client commands with an invalid config file", () => {
  let gw: GatewayProcess;
  let file: string;
  beforeAll(async () => {
    const stateDir = makeTempDir();
    file = path.join(stateDir, "openclaw.yaml");
    gw = await startGateway({
      stateDir,
      token: null,
      args: ["--port", "0"],
      configFile: { name: "openclaw.yaml", content: "gateway:\n  auth:\n    token: file-token-123456\n  reload:\n    mode: off\n" },
    });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it("a client machine (gateway.mode remote) reaches the gateway at gateway.remote.url", async () => {
    const client = makeTempDir();
    fs.writeFileSync(path.join(client, "openclaw.yaml"), `gateway:\n  mode: remote\n  remote:\n    url: ${gw.url}\n    token: file-token-123456\n`);
    const res = await runCli(["health", "--json"], { OPENCLAW_STATE_DIR: client });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.output)).toMatchObject({ ok: true });
  });

  it("a broken key outside gateway: status, health and call work with its gateway section, and warn", async () => {
    fs.appendFileSync(file, "logging:\n  level: loud\n");
    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const status = await runCli(["gateway", "status", "--json"], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.output.slice(status.output.indexOf("{")))).toMatchObject({ running: true, port: gw.port });
    expect(status.output).toMatch(/warning: config file .*openclaw\.yaml is invalid \(logging\.level: .*\); this command uses its gateway section only/);
    const health = await runCli(["health"], env);
    expect(health.code).toBe(0);
    expect(health.output).toContain("Gateway: ok");
    expect(health.output).toContain("logging.level");
    const call = await runCli(["gateway", "call", "status", "--json"], env);
    expect(call.code).toBe(0);
    // One warning per command, not one per lookup.
    expect(call.output.match(/warning: config file/g)).toHaveLength(1);
  }, 120_000);

  it("a broken gateway key: the lock's port, the env token and the defaults still reach it", async () => {
    fs.writeFileSync(file, "gateway:\n  port: not-a-port\n");
    const res = await runCli(["health", "--json"], { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: "file-token-123456" });
    expect(res.code).toBe(0);
    expect(res.output).toContain("gateway.port");
    expect(res.output).toContain("the built-in gateway defaults");
    expect(JSON.parse(res.output.slice(res.output.indexOf("{")))).toMatchObject({ ok: true });
  });

  it("commands that act on the config itself still refuse it with exit 78", async () => {
    const res = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(res.code).toBe(78);
    expect(res.output).toContain("gateway.port");
  });
});
