import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

let model: FakeModelServer;
let telegram: FakeTelegram;
beforeAll(async () => {
  model = await startFakeModelServer({ apiKey: "sk-right", models: ["fake-model"] });
  telegram = await startFakeTelegram();
});
afterAll(async () => {
  await model?.close();
  await telegram?.close();
});

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A state dir holding `openclaw.json` with this config (mode 0600, dir 0700). */
function stateWith(config: Record<string, unknown>): string {
  const dir = makeTempDir();
  fs.chmodSync(dir, 0o700);
  fs.writeFileSync(path.join(dir, "openclaw.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  return dir;
}

/**
 * A gateway port the doctor will find free: below the range the kernel hands out to client
 * sockets and to `listen(0)`, where every other test's connections and servers live (a random
 * port inside that range was sometimes taken by one of them, and the port check failed).
 */
function unusedGatewayPort(): number {
  const [first] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  const below = Math.min(first ?? 32768, 32768);
  return 10000 + Math.floor(Math.random() * (below - 10000));
}

function fakeProvider(apiKey: string, port = 0): Record<string, unknown> {
  return {
    gateway: { mode: "local", port: port || unusedGatewayPort() },
    agents: { defaults: { model: { primary: "fake/fake-model" } } },
    models: { providers: { fake: { baseUrl: `${model.url}/v1`, apiKey, api: "openai-completions" } } },
  };
}

async function doctor(stateDir: string, ...args: string[]) {
  const { code, output } = await runCli(["doctor", "--json", ...args], { OPENCLAW_STATE_DIR: stateDir });
  const report = JSON.parse(output.slice(output.indexOf("{")));
  const byId = (id: string) => report.checks.filter((c: { id: string }) => c.id === id);
  return { code, report, byId, one: (id: string) => byId(id)[0] };
}

describe("openclaw doctor", () => {
  it("passes a healthy installation: provider key accepted with one request, Telegram token accepted", async () => {
    const dir = stateWith({ ...fakeProvider("sk-right"), channels: { telegram: { botToken: telegram.token, apiRoot: telegram.url } } });
    const before = model.requests.length;
    const { code, report, one } = await doctor(dir);
    expect(report.checks.filter((c: { status: string }) => c.status === "fail")).toEqual([]);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(one("provider")).toMatchObject({ status: "ok" });
    expect(model.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
    expect(one("channel:telegram:default")).toMatchObject({ status: "ok", message: expect.stringContaining("@fake_openclaw_bot") });
    expect(one("config").status).toBe("ok");
    expect(one("node").status).toBe("ok");
  });

  it("names a refused provider key and a refused channel token, without printing them", async () => {
    const dir = stateWith({ ...fakeProvider("sk-wrong-key-value"), channels: { telegram: { botToken: "999:not-the-token", apiRoot: telegram.url } } });
    const { code, report, one } = await doctor(dir);
    expect(code).toBe(1);
    expect(one("provider")).toMatchObject({ status: "fail", message: expect.stringContaining("refused the API key (HTTP 401)") });
    expect(one("channel:telegram:default")).toMatchObject({ status: "fail", message: expect.stringContaining("refused the bot token") });
    expect(JSON.stringify(report)).not.toContain("sk-wrong-key-value");
    expect(JSON.stringify(report)).not.toContain("not-the-token");
  });

  it("a missing config: says so and points at onboard", async () => {
    const dir = makeTempDir();
    fs.chmodSync(dir, 0o700);
    const { one } = await doctor(dir);
    expect(one("config")).toMatchObject({ status: "warn", message: expect.stringContaining("no config file"), fix: expect.stringContaining("openclaw onboard") });
  });

  it("an invalid config: names the key path", async () => {
    const dir = stateWith({ gateway: { bind: "everywhere" } });
    const { code, one } = await doctor(dir);
    expect(code).toBe(1);
    expect(one("config")).toMatchObject({ status: "fail", message: expect.stringContaining("gateway.bind") });
  });

  it("wrong permissions: named with the chmod that fixes them; --fix applies it and says so", async () => {
    const dir = stateWith(fakeProvider("sk-right"));
    const config = path.join(dir, "openclaw.json");
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(config, 0o644);
    fs.mkdirSync(path.join(dir, "credentials"), { mode: 0o700 });
    fs.writeFileSync(path.join(dir, "credentials", "gateway.token"), "tok", { mode: 0o644 });

    const first = await doctor(dir);
    expect(first.code).toBe(1);
    expect(first.one("state-dir")).toMatchObject({ status: "fail", message: expect.stringContaining("mode 0755"), fix: `chmod 0700 ${dir}` });
    expect(first.byId("credentials").map((c: { fix: string }) => c.fix)).toEqual([`chmod 0600 ${config}`, `chmod 0600 ${path.join(dir, "credentials", "gateway.token")}`]);

    const fixed = await doctor(dir, "--fix");
    expect(fixed.report.fixed).toEqual(expect.arrayContaining([`chmod 0700 ${dir}`, `chmod 0600 ${config}`]));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    const after = await doctor(dir);
    expect(after.report.checks.filter((c: { status: string }) => c.status === "fail")).toEqual([]);
    expect(after.code).toBe(0);
  });

  it("a port taken by another process: names the process and the fix", async () => {
    const holder = spawn(process.execPath, ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(holder);
    const port = await new Promise<number>((resolve) => holder.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
    const dir = stateWith(fakeProvider("sk-right", port));
    const { code, one } = await doctor(dir);
    expect(code).toBe(1);
    expect(one("port")).toMatchObject({
      status: "fail",
      message: expect.stringContaining(`port ${port} on 127.0.0.1 is in use by pid ${holder.pid}`),
      fix: expect.stringContaining("gateway.port"),
    });
    expect(one("port").message).toContain("createServer");
  });

  it("a custom bind's port taken on 127.0.0.1, where the gateway also listens: named", async () => {
    const holder = spawn(process.execPath, ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(holder);
    const port = await new Promise<number>((resolve) => holder.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
    const config = fakeProvider("sk-right", port);
    const dir = stateWith({ ...config, gateway: { ...(config.gateway as object), bind: "custom", customBindHost: "127.0.0.2" } });
    const { code, one } = await doctor(dir);
    expect(code).toBe(1);
    expect(one("port")).toMatchObject({ status: "fail", message: expect.stringContaining(`port ${port} on 127.0.0.1 is in use by pid ${holder.pid}`) });
  });

  it("a stale lock and pid file: warned, removed by --fix", async () => {
    const dir = stateWith(fakeProvider("sk-right"));
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.once("exit", resolve));
    fs.writeFileSync(path.join(dir, "gateway.lock"), JSON.stringify({ pid: dead.pid, host: "127.0.0.1", port: 1, startedAt: 0, version: "x" }));
    fs.writeFileSync(path.join(dir, "gateway.pid"), `${dead.pid}\n`);
    fs.mkdirSync(path.join(dir, "gateway.lock.d"));
    const first = await doctor(dir);
    expect(first.one("lock")).toMatchObject({ status: "warn", message: expect.stringContaining(`pid ${dead.pid} is not running`) });
    const fixed = await doctor(dir, "--fix");
    expect(fixed.one("lock").fixed).toContain("gateway.lock");
    expect(fs.existsSync(path.join(dir, "gateway.lock"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "gateway.pid"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "gateway.lock.d"))).toBe(false);
  });

  it("a lock left by a dead gateway whose pid another process now has: warned, and neither doctor nor gateway stop signals that process", async () => {
    const dir = stateWith(fakeProvider("sk-right"));
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(other);
    fs.writeFileSync(path.join(dir, "gateway.lock"), JSON.stringify({ pid: other.pid, host: "127.0.0.1", port: 1, startedAt: 0, version: "x" }));
    const lockDir = path.join(dir, "gateway.lock.d");
    fs.mkdirSync(lockDir);
    const longAgo = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(lockDir, longAgo, longAgo);
    const { one } = await doctor(dir);
    expect(one("lock")).toMatchObject({ status: "warn", message: expect.stringContaining(`pid ${other.pid} is no longer the gateway that wrote it`) });
    const stop = await runCli(["gateway", "stop"], { OPENCLAW_STATE_DIR: dir });
    expect(stop.output).toContain("Gateway is not running");
    expect(other.exitCode).toBe(null);
    expect(other.signalCode).toBe(null);
  });

  it("a pid file whose pid another process now has and no gateway holds the lock: warned, removed by --fix, that process not signalled", async () => {
    const dir = stateWith(fakeProvider("sk-right"));
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(other);
    fs.writeFileSync(path.join(dir, "gateway.pid"), `${other.pid}\n`);
    const { one } = await doctor(dir);
    expect(one("lock")).toMatchObject({ status: "warn", message: expect.stringContaining(`gateway.pid (pid ${other.pid} holds no live gateway lock`) });
    const fixed = await doctor(dir, "--fix");
    expect(fixed.one("lock").fixed).toContain("gateway.pid");
    expect(fs.existsSync(path.join(dir, "gateway.pid"))).toBe(false);
    expect(other.exitCode).toBe(null);
    expect(other.signalCode).toBe(null);
  });

  it("checks mcp.servers without starting them: a command not found, a missing cwd, the sandbox layer hiding their tools", async () => {
    const dir = stateWith({
      ...fakeProvider("sk-right"),
      agents: { defaults: { sandbox: { mode: "non-main" } } },
      mcp: {
        servers: {
          good: { command: "node", args: ["-e", "process.exit(7)"] },
          absent: { command: "definitely-not-a-command-3141" },
          lost: { command: process.execPath, cwd: path.join(makeTempDir(), "no-such-folder") },
          remote: { url: "https://mcp.example.invalid/mcp" },
          parked: { command: "also-not-a-command", enabled: false },
        },
      },
    });
    const { byId, one } = await doctor(dir);
    expect(one("mcp:good")).toMatchObject({ status: "ok", message: expect.stringMatching(/^MCP server good: \/.*\/node \(not started;/) });
    expect(one("mcp:absent")).toMatchObject({
      status: "fail",
      message: "MCP server absent: `definitely-not-a-command-3141` is not on PATH",
      fix: expect.stringContaining("mcp.servers.absent.command"),
    });
    expect(one("mcp:lost")).toMatchObject({ status: "fail", fix: expect.stringContaining("mcp.servers.lost.cwd") });
    expect(one("mcp:remote")).toMatchObject({ status: "ok", message: expect.stringContaining("not contacted") });
    expect(byId("mcp:parked")).toEqual([]);
    expect(one("mcp:sandbox")).toMatchObject({ status: "warn", fix: expect.stringContaining('"bundle-mcp"') });
    const listed = stateWith({
      ...fakeProvider("sk-right"),
      agents: { defaults: { sandbox: { mode: "non-main" } } },
      tools: { sandbox: { tools: { allow: ["exec", "bundle-mcp"] } } },
      mcp: { servers: { good: { command: "node" } } },
    });
    expect((await doctor(listed)).byId("mcp:sandbox")).toEqual([]);
  });

  it("prints a readable report without --json", async () => {
    const dir = makeTempDir();
    fs.chmodSync(dir, 0o700);
    const { output } = await runCli(["doctor"], { OPENCLAW_STATE_DIR: dir });
    expect(output).toMatch(/^warn no config file/m);
    expect(output).toMatch(/fix: run `openclaw onboard`/);
  });
});
