import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isProcessAlive } from "../../src/infra/process-alive.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { closedPort } from "../helpers/ports.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `models.providers.<id>.localService` (docs/models.md, "Local model services"): a real gateway
 * whose provider's server is a real child process it starts on the first turn, reuses, stops
 * when idle or when the gateway stops, and whose failure to start names the service and shows
 * its output (with secrets masked), and lets failover answer from the next model.
 */

const servers = useFakeServers();
const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/local-model-server/server.mjs");
const SECRET = "sk-local-service-secret";

interface LocalSetup {
  stateDir: string;
  startedPids(): number[];
}

async function localSetup(service: Record<string, unknown> = {}, serverEnv: Record<string, string> = {}, agentModel: unknown = "local/local-model"): Promise<LocalSetup> {
  const stateDir = makeTempDir("openclaw-local-service-");
  const port = await closedPort();
  const starts = path.join(stateDir, "server-starts");
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: agentModel } },
    models: {
      providers: {
        local: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          apiKey: "local-key",
          api: "openai-completions",
          models: [{ id: "local-model" }],
          localService: {
            command: process.execPath,
            args: [SERVER, String(port)],
            env: { STARTS_FILE: starts, LOCAL_SECRET: SECRET, ...serverEnv },
            readyTimeoutMs: 15_000,
            ...service,
          },
        },
        fake: { baseUrl: `${servers.model.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "fake-model" }] },
      },
    },
  };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  return { stateDir, startedPids: () => (fs.existsSync(starts) ? fs.readFileSync(starts, "utf8").trim().split("\n").map(Number) : []) };
}

function turn(gw: GatewayProcess, message: string) {
  return runCli(["agent", "-m", message, "--port", String(gw.port), "--token", gw.token!], { OPENCLAW_STATE_DIR: gw.stateDir }, 60_000);
}

describe("a provider's localService", () => {
  it("is started by the first turn, reused by the next, and stopped with the gateway", async () => {
    const setup = await localSetup();
    const gw = await startGateway({ stateDir: setup.stateDir });
    try {
      const first = await turn(gw, "hello");
      expect(first.code, first.output).toBe(0);
      expect(first.output).toContain("local answer");
      const second = await turn(gw, "again");
      expect(second.code, second.output).toBe(0);
      expect(setup.startedPids()).toHaveLength(1);
      const [pid] = setup.startedPids();
      expect(isProcessAlive(pid!)).toBe(true);
      expect(gw.output()).toContain(`models.providers.local.localService: started ${process.execPath} (pid ${pid})`);
      expect(gw.output()).toMatch(/models\.providers\.local\.localService: ready after \d+ ms/);
      expect(await gw.stop()).toBe(0);
      expect(isProcessAlive(pid!)).toBe(false);
      expect(gw.output()).toContain("stopping the server");
      expect(gw.output()).not.toContain(SECRET);
    } finally {
      await gw.stop("SIGKILL");
    }
  }, 120_000);

  it("with idleStopMs, stops once idle and starts again for the next turn", async () => {
    const setup = await localSetup({ idleStopMs: 300 });
    const gw = await startGateway({ stateDir: setup.stateDir });
    try {
      expect((await turn(gw, "one")).output).toContain("local answer");
      const [first] = setup.startedPids();
      await waitUntil(() => !isProcessAlive(first!), 15_000, "the idle server stopped");
      expect(gw.output()).toContain("idle for 300 ms (idleStopMs)");
      expect((await turn(gw, "two")).output).toContain("local answer");
      expect(setup.startedPids()).toHaveLength(2);
    } finally {
      await gw.stop();
    }
  }, 120_000);

  it("a server that cannot start fails the turn with the service, the exit and its output, secrets masked", async () => {
    const setup = await localSetup({}, { EXIT_AT_START: "2" });
    const gw = await startGateway({ stateDir: setup.stateDir });
    try {
      const res = await turn(gw, "hello");
      expect(res.code).toBe(1);
      expect(res.output).toContain(`models.providers.local.localService: ${process.execPath} exited with code 2 before it answered`);
      expect(res.output).toContain("fatal: no model weights found");
      expect(res.output).not.toContain(SECRET);
      expect(gw.output()).not.toContain(SECRET);
    } finally {
      await gw.stop();
    }
  }, 120_000);

  it("a server that cannot start hands the turn to the next model of the chain", async () => {
    servers.model.enqueue({ text: "answered by the fallback" });
    const setup = await localSetup({}, { EXIT_AT_START: "2" }, { primary: "local/local-model", fallbacks: ["fake/fake-model"] });
    const gw = await startGateway({ stateDir: setup.stateDir });
    try {
      const res = await turn(gw, "hello");
      expect(res.code, res.output).toBe(0);
      expect(res.output).toContain("answered by the fallback");
    } finally {
      await gw.stop();
    }
  }, 120_000);

  it("agent --local starts the server in the CLI's process and takes it along when it exits", async () => {
    const setup = await localSetup();
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: setup.stateDir }, 60_000);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain("local answer");
    const [pid] = setup.startedPids();
    await waitUntil(() => !isProcessAlive(pid!), 15_000, "the CLI's server exited with it");
  }, 120_000);

  it("config validate refuses a command that is not an absolute path and warns of an unknown key", async () => {
    const relative = await localSetup({ command: "llama-server" });
    const res = await runCli(["config", "validate"], { OPENCLAW_STATE_DIR: relative.stateDir });
    expect(res.code).toBe(78);
    expect(res.output).toContain("models.providers.local.localService.command: expected an absolute path");
    const unknown = await localSetup({ restartOnCrash: true });
    const unknownRes = await runCli(["config", "validate"], { OPENCLAW_STATE_DIR: unknown.stateDir });
    expect(unknownRes.code).toBe(0);
    expect(unknownRes.output).toContain('unknown config key "models.providers.local.localService.restartOnCrash" (ignored)');
  });
});
