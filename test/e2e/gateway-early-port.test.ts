import { spawn } from "node:child_process";
import fs from "node:fs";
import { builtinModules } from "node:module";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { listenEarly, type EarlyListen } from "../../src/gateway/early-listen.js";
import { runGateway } from "../../src/gateway/run-gateway.js";
import { cleanEnv, makeTempDir, runCli, spawnCli, type CliProcess } from "../helpers/gateway-process.js";
import { acceptsConnections, closedPort } from "../helpers/ports.js";
import { openOperator } from "../helpers/ws-client.js";

function writeJsonConfig(stateDir: string, config: unknown, name = "openclaw.json"): void {
  fs.writeFileSync(path.join(stateDir, name), JSON.stringify(config, null, 2));
}

/** `gateway run` as users start it (no --port: the port comes from the config or the environment); resolves at "gateway listening". */
async function runUntilListening(stateDir: string, env: Record<string, string> = {}): Promise<{ child: CliProcess; line: Record<string, unknown> }> {
  const child = spawnCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "early-token", ...env });
  const text = await child.waitForOutput(/^.*"msg":"gateway listening".*$/m, 15_000).catch((err) => {
    child.proc.kill("SIGKILL");
    throw new Error(`${(err as Error).message}\n--- gateway output ---\n${child.output()}`);
  });
  return { child, line: JSON.parse(text) };
}

/** What the CLI entry does first, in this process: a state dir whose config names a free port, and that port opened early. */
async function openedEarly(): Promise<{ stateDir: string; port: number; env: NodeJS.ProcessEnv; early: EarlyListen }> {
  const stateDir = makeTempDir();
  const port = await closedPort();
  writeJsonConfig(stateDir, { gateway: { port } });
  const env = cleanEnv({ OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "early-token" });
  const early = await listenEarly({}, env);
  expect(early).toMatchObject({ host: "127.0.0.1", port, boundPort: port });
  return { stateDir, port, env, early: early! };
}

describe("the port opens before the gateway's code loads", () => {
  // runGateway imports the server on demand; in this process that goes through vitest's transform,
  // which can take longer than a held request waits (10 s) on a busy machine. Loaded once up front.
  beforeAll(async () => {
    await import("../../src/gateway/server.js");
  }, 60_000);

  it("answers probes while starting, holds other requests, and the started gateway keeps the same socket", async () => {
    const { stateDir, port, env, early } = await openedEarly();
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    const starting = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect([starting.status, await starting.json()]).toEqual([503, { ok: false, status: "starting" }]);
    // Held until the app attaches, then answered by it: the early listener itself never says 404.
    const held = fetch(`http://127.0.0.1:${port}/no-such-page`);

    const gateway = await runGateway({ env, early, console: false, notice: () => {} });
    try {
      expect(gateway.port).toBe(port);
      expect((await held).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      const log = fs.readFileSync(path.join(stateDir, "logs", "gateway.log"), "utf8");
      expect(log).toMatch(/"port":\d+,.*"portOpenMs":\d+,"openedEarly":true/);
    } finally {
      await gateway.stop("test finished");
    }
    expect(await acceptsConnections(port)).toBe(false);
  });

  it("when the loaded config puts the gateway elsewhere (the file changed after the quick read), it closes the early port and listens there", async () => {
    const { stateDir, port: firstPort, env, early } = await openedEarly();
    const secondPort = await closedPort();
    writeJsonConfig(stateDir, { gateway: { port: secondPort } });

    const gateway = await runGateway({ env, early, console: false, notice: () => {} });
    try {
      expect(gateway.port).toBe(secondPort);
      expect(await acceptsConnections(firstPort)).toBe(false);
      expect((await fetch(`http://127.0.0.1:${secondPort}/readyz`)).status).toBe(200);
      expect(fs.readFileSync(path.join(stateDir, "logs", "gateway.log"), "utf8")).toContain('"openedEarly":false');
    } finally {
      await gateway.stop("test finished");
    }
  });

  it("a start-up failure after the early listen closes the port", async () => {
    const { stateDir, port, env, early } = await openedEarly();
    writeJsonConfig(stateDir, { gateway: { port, controlUi: { basePath: "/a b" } } });
    await expect(runGateway({ env, early, console: false, notice: () => {} })).rejects.toThrow(/gateway\.controlUi\.basePath/);
    expect(await acceptsConnections(port)).toBe(false);
  });
});

describe("gateway run with the early port", () => {
  it("a plain-JSON config: the port from the config opens early and the gateway serves normally", async () => {
    const stateDir = makeTempDir();
    const port = await closedPort();
    writeJsonConfig(stateDir, { gateway: { mode: "local", port, bind: "loopback" } });
    const { child, line } = await runUntilListening(stateDir);
    try {
      expect(line).toMatchObject({ host: "127.0.0.1", port, openedEarly: true });
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      const { sock, hello } = await openOperator(`ws://127.0.0.1:${port}`, "early-token");
      expect(hello.type).toBe("hello-ok");
      sock.close();
    } finally {
      expect(await child.stop()).toBe(0);
    }
  });

  it("$OPENCLAW_GATEWAY_PORT outranks gateway.port the same way whether the config is read early (JSON, plain YAML) or not (JSON5)", async () => {
    for (const [name, content, early] of [
      ["openclaw.json", '{"gateway": {"port": 1}}', true],
      ["openclaw.yaml", "gateway:\n  port: 1\n", true],
      ["openclaw.json5", "{ gateway: { port: 1 } }", false],
    ] as const) {
      const stateDir = makeTempDir();
      fs.writeFileSync(path.join(stateDir, name), content);
      const port = await closedPort();
      const { child, line } = await runUntilListening(stateDir, { OPENCLAW_GATEWAY_PORT: String(port) });
      try {
        expect(line, name).toMatchObject({ port, openedEarly: early });
      } finally {
        await child.stop();
      }
    }
  });

  it("a non-loopback bind opens only after the auth checks, as before", async () => {
    const stateDir = makeTempDir();
    writeJsonConfig(stateDir, { gateway: { bind: "lan", auth: { mode: "none" } } });
    const res = await runCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(1);
    expect(res.output).toContain("refusing to bind gateway to 0.0.0.0:0 without auth");
  });

  it("a second gateway on the same state dir and port gets the lock message, not the port's", async () => {
    const stateDir = makeTempDir();
    const port = await closedPort();
    writeJsonConfig(stateDir, { gateway: { port } });
    const { child: first } = await runUntilListening(stateDir);
    try {
      const second = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "x" });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`another gateway is already running for state dir ${stateDir} (pid ${first.proc.pid}`);
    } finally {
      await first.stop();
    }
  });

  it("a port held by another program: today's message, and the process exits", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const stateDir = makeTempDir();
      writeJsonConfig(stateDir, { gateway: { port } });
      const res = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "x" });
      expect(res.code).toBe(1);
      expect(res.output).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("config errors found by the full load after the port opened early: today's messages and exit codes, the port closed", async () => {
    const cases = [
      { config: { gateway: { controlUi: { basePath: "/a b" } } }, code: 1, message: 'gateway.controlUi.basePath: "/a b" is not a plain URL path' },
      { config: { agents: 5 }, code: 78, message: "invalid config:" },
      { config: { gateway: { mode: "remote" } }, code: 1, message: 'gateway.mode is "remote"' },
    ];
    for (const { config, code, message } of cases) {
      const stateDir = makeTempDir();
      const port = await closedPort();
      writeJsonConfig(stateDir, { ...config, gateway: { ...(config as { gateway?: object }).gateway, port } });
      const res = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "x" });
      expect(res.code, JSON.stringify(config)).toBe(code);
      expect(res.output).toContain(message);
      expect(await acceptsConnections(port)).toBe(false);
    }
  });

  it("the ES module entry (dist/bin/openclaw.js, which older service units run) starts the gateway the same way", async () => {
    const esmEntry = fileURLToPath(new URL("../../dist/bin/openclaw.js", import.meta.url));
    const stateDir = makeTempDir();
    const child = spawn(process.execPath, [esmEntry, "gateway", "run", "--port", "0"], {
      env: cleanEnv({ OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "early-token" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
        let out = "";
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          const match = /^.*"msg":"gateway listening".*$/m.exec(out);
          if (match) resolve(JSON.parse(match[0]));
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
        void exited.then(() => reject(new Error(`exited before listening:\n${out}`)));
      });
      expect(line).toMatchObject({ openedEarly: true });
      expect((await fetch(`http://127.0.0.1:${line.port}/readyz`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });

  it("the CommonJS entry holds only what runs before the port opens: Node built-ins, no chunk", () => {
    const entry = fs.readFileSync(fileURLToPath(new URL("../../dist/bin/openclaw.cjs", import.meta.url)), "utf8");
    const required = [...entry.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((spec) => !builtinModules.includes(spec.replace(/^node:/, "")))).toEqual([]);
    expect(entry).not.toMatch(/^import /m);
    // The rest of the CLI comes in through the one dynamic import, by URL.
    expect([...entry.matchAll(/\bimport\(/g)]).toHaveLength(1);
  });
});
