import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module without types
import { benchConfig, CONFIG_TOKEN } from "../../bench/lib/bench-config.mjs";
import { makeTempDir, runCli, spawnCli, startGateway } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

describe("one gateway per state dir", () => {
  it("a second gateway on the same state dir refuses with a clear message", async () => {
    const first = await startGateway();
    try {
      const second = await runCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: first.stateDir, OPENCLAW_GATEWAY_TOKEN: "x" });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`another gateway is already running for state dir ${first.stateDir} (pid ${first.proc.pid}`);
      // The first one is untouched.
      expect((await fetch(`${first.httpUrl}/readyz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
  });

  it("reclaims a stale lock left by a killed gateway", async () => {
    const stateDir = makeTempDir();
    const killed = await startGateway({ stateDir });
    await killed.stop("SIGKILL");
    expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(true);
    const next = await startGateway({ stateDir });
    expect((await fetch(`${next.httpUrl}/readyz`)).status).toBe(200);
    await next.stop();
    expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
  });
});

describe("security defaults", () => {
  it("refuses a non-loopback bind without auth", async () => {
    const res = await runCli(["gateway", "run", "--port", "0", "--bind", "lan", "--auth", "none"], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(res.code).toBe(1);
    expect(res.output).toMatch(/refusing to bind gateway to 0\.0\.0\.0:0 without auth/);
  });

  it("binds loopback by default, generates a token once, stores it 0600 and never logs it", async () => {
    const stateDir = makeTempDir();
    const gw = await startGateway({ stateDir, token: null });
    const tokenFile = path.join(stateDir, "credentials", "gateway.token");
    const token = fs.readFileSync(tokenFile, "utf8").trim();
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(gw.output()).toContain(`Generated a gateway token (shown once): ${token}`);
    expect(gw.output()).toContain(tokenFile);
    const lock = JSON.parse(fs.readFileSync(path.join(stateDir, "gateway.lock"), "utf8"));
    expect(lock.host).toBe("127.0.0.1");
    const { sock } = await openOperator(gw.url, token);
    sock.close();
    await gw.stop();
    expect(fs.readFileSync(path.join(stateDir, "logs", "gateway.log"), "utf8")).not.toContain(token);

    const again = await startGateway({ stateDir, token: null });
    expect(again.output()).not.toContain(token);
    const { sock: sock2 } = await openOperator(again.url, token);
    sock2.close();
    await again.stop();
  });
});

describe("config at start-up", () => {
  it("a bad value stops start-up with exit 78 naming the key path", async () => {
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.yaml"), "gateway:\n  port: 99999\n");
    const res = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(78);
    expect(res.output).toContain("gateway.port: expected integer 1-65535");
  });

  it("a provider baseUrl that is not an http(s) URL stops start-up with exit 78 naming the key path and an example", async () => {
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.yaml"), "models:\n  providers:\n    local:\n      api: openai-completions\n      baseUrl: localhost:11434/v1\n");
    const res = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(78);
    expect(res.output).toContain('models.providers.local.baseUrl: expected an http(s) URL such as "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1"');
  });

  it("invalid YAML exits non-zero with file, line and column", async () => {
    const stateDir = makeTempDir();
    const file = path.join(stateDir, "openclaw.yaml");
    fs.writeFileSync(file, "gateway:\n  port: 1\n   bind: [loopback\n");
    const res = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(78);
    expect(res.output).toMatch(new RegExp(`${file.replace(/[.]/g, "\\.")}:\\d+:\\d+`));
  });

  it("invalid JSON5 at OPENCLAW_CONFIG_PATH exits non-zero with file, line and column", async () => {
    const dir = makeTempDir();
    const file = path.join(dir, "custom.json");
    fs.writeFileSync(file, '{\n  "gateway": {\n    "port": 1,,\n  }\n}\n');
    const res = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: dir, OPENCLAW_CONFIG_PATH: file });
    expect(res.code).toBe(78);
    expect(res.output).toContain(`${file}:3:`);
  });

  it("an unknown key is a warning naming it, and start-up continues", async () => {
    const gw = await startGateway({ configFile: { name: "openclaw.yaml", content: "gateway:\n  mode: local\n  colour: blue\n" } });
    expect(gw.output()).toContain("gateway.colour");
    expect((await fetch(`${gw.httpUrl}/readyz`)).status).toBe(200);
    await gw.stop();
  });

  it("loads OpenClaw's own JSON config unchanged", async () => {
    const dir = makeTempDir();
    const config = benchConfig(dir, 18789);
    const gw = await startGateway({ stateDir: dir, token: null, configFile: { name: "openclaw.json", content: JSON.stringify(config, null, 2) } });
    expect(gw.output()).not.toMatch(/"level":40/);
    const { sock, hello } = await openOperator(gw.url, CONFIG_TOKEN);
    expect(hello.snapshot.configPath).toBe(path.join(dir, "openclaw.json"));
    sock.close();
    await gw.stop();
    expect(fs.readFileSync(path.join(dir, "gateway.log"), "utf8")).toContain("gateway listening");
  });
});

describe("shutdown", () => {
  it("SIGTERM sends shutdown, closes clients with 1012 and exits 0 in under 2 s", async () => {
    const gw = await startGateway();
    const { sock } = await openOperator(gw.url, gw.token);
    const started = Date.now();
    const exit = gw.stop("SIGTERM");
    const shutdown = await sock.waitFor((f) => f.event === "shutdown");
    expect(shutdown.payload.reason).toMatch(/SIGTERM/);
    expect((await sock.closed).code).toBe(1012);
    expect(await exit).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(fs.existsSync(path.join(gw.stateDir, "gateway.lock"))).toBe(false);
  });
});

describe("SIGTERM while starting", () => {
  it("still stops cleanly and releases the lock", async () => {
    const stateDir = makeTempDir();
    const child = spawnCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "t" });
    const lockFile = path.join(stateDir, "gateway.lock");
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(lockFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(fs.existsSync(lockFile)).toBe(true);
    expect(await child.stop("SIGTERM")).toBe(0);
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
