import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

let gw: GatewayProcess;
let file: string;
beforeAll(async () => {
  gw = await startGateway({ configFile: { name: "openclaw.yaml", content: "# my gateway\ngateway:\n  mode: local\nlogging:\n  level: info\n" } });
  file = path.join(gw.stateDir, "openclaw.yaml");
});
afterAll(async () => {
  await gw?.stop();
});

describe("hot reload", () => {
  it("applies a valid change live and logs it", async () => {
    fs.writeFileSync(file, "# my gateway\ngateway:\n  mode: local\nlogging:\n  level: debug\n");
    await gw.waitForOutput(/"msg":"config reloaded"/, 10_000);
    expect(gw.output()).toMatch(/"changedPaths":\["logging\.level"\]/);
    // debug is now live: a connection logs its debug-level disconnect line.
    const { sock } = await openOperator(gw.url, gw.token);
    sock.close();
    await gw.waitForOutput(/"level":20[^\n]*"msg":"client disconnected"/, 5_000);
  });

  it("keeps the running config when the new one is invalid, and says why", async () => {
    fs.writeFileSync(file, "gateway:\n  mode: local\n  bind: everywhere\n");
    await gw.waitForOutput(/config reload skipped \(invalid config\)/, 10_000);
    expect(gw.output()).toContain("gateway.bind");
    const { sock } = await openOperator(gw.url, gw.token);
    expect((await sock.request("status", {})).payload.configReload.lastError).toContain("gateway.bind");
    expect((await sock.request("health", {})).ok).toBe(true);
    sock.close();
  });

  it("says which changed keys need a restart", async () => {
    fs.writeFileSync(file, "gateway:\n  mode: local\n  port: 18790\nlogging:\n  level: debug\n");
    await gw.waitForOutput(/config change requires gateway restart[^\n]*/, 10_000);
    expect(gw.output()).toMatch(/"paths":\["gateway\.port"\][^\n]*requires gateway restart/);
    const { sock } = await openOperator(gw.url, gw.token);
    const status = await sock.request("status", {});
    expect(status.payload.configReload.pendingRestartPaths).toEqual(["gateway.port"]);
    // Still serving on the old port.
    expect(status.payload.port).toBe(gw.port);
    sock.close();
  });
});

describe("hot reload of the /v1 switch", () => {
  it("turns the OpenAI-compatible endpoints on without a restart", async () => {
    const live = await startGateway({ configFile: { name: "openclaw.yaml", content: "gateway:\n  mode: local\n" } });
    try {
      const models = () => fetch(`${live.httpUrl}/v1/models`, { headers: { authorization: `Bearer ${live.token}` } });
      expect((await models()).status).toBe(404);
      fs.writeFileSync(path.join(live.stateDir, "openclaw.yaml"), "gateway:\n  mode: local\n  http:\n    endpoints:\n      chatCompletions:\n        enabled: true\n");
      await live.waitForOutput(/"msg":"config reloaded"/, 10_000);
      expect(live.output()).not.toMatch(/requires gateway restart/);
      expect((await models()).status).toBe(200);
    } finally {
      await live.stop();
    }
  });
});

describe("hot reload without a config file at start", () => {
  it("picks up a config file created later (e.g. by `config set`)", async () => {
    const bare = await startGateway();
    try {
      fs.writeFileSync(path.join(bare.stateDir, "openclaw.yaml"), "logging:\n  level: debug\n");
      await bare.waitForOutput(/"msg":"config reloaded"/, 10_000);
      expect(bare.output()).toMatch(/"changedPaths":\[[^\]]*"logging\.level"/);
    } finally {
      await bare.stop();
    }
  });
});

describe("hot reload of messages.queue", () => {
  it("governs a session whose messages already wait: they stay, the next one meets the new cap", async () => {
    const server = await startFakeModelServer();
    const stateDir = makeTempDir();
    const live = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir, { messages: { queue: { mode: "followup" } } }) } });
    const { sock } = await openOperator(live.url, live.token);
    let release!: () => void;
    try {
      server.enqueue({ text: "first answer", holdMidway: new Promise<void>((resolve) => (release = resolve)) }, { text: "second answer" });
      const send = (message: string) => sock.request("chat.send", { sessionKey: "queued", message, idempotencyKey: message });
      expect((await send("one")).ok).toBe(true);
      await sock.waitFor((f) => f.event === "chat" && f.payload.runId === "one" && f.payload.state === "delta", 10_000);
      expect((await send("two")).ok).toBe(true);

      const { payload: snap } = await sock.request("config.get", {});
      const patched = await sock.request("config.patch", { raw: JSON.stringify({ messages: { queue: { cap: 1, drop: "new" } } }), baseHash: snap.hash });
      expect(patched.payload).toMatchObject({ applied: true, restartRequiredPaths: [] });

      const three = await send("three");
      expect(three.ok).toBe(false);
      expect(three.error.details).toMatchObject({ reason: "queue-full" });
      release();
      const second = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === "two" && f.payload.state === "final", 10_000);
      expect(JSON.stringify(second.payload)).toContain("second answer");
    } finally {
      release?.();
      sock.close();
      await live.stop();
      await server.close();
    }
  });
});
