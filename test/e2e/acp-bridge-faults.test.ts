import net from "node:net";
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { initialize, spawnAcpBridge, type AcpIde } from "../helpers/acp-ide.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, spawnCli, startGateway, type CliProcess, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

let server: FakeModelServer;
let gw: GatewayProcess;
let restarted: CliProcess | undefined;
const ides: AcpIde[] = [];
const projectDir = makeTempDir("acp-project-");

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir) } });
});
afterAll(async () => {
  await Promise.all(ides.map((ide) => ide.close()));
  await restarted?.stop();
  await gw?.stop();
  await server?.close();
});

/** A TCP relay to the gateway whose connections the test can cut while the gateway keeps running. */
async function startRelay(port: number) {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    url: `ws://127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
    cut: () => sockets.forEach((s) => s.destroy()),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        relay.close(() => resolve());
      }),
  };
}

function bridge(url = gw.url): AcpIde {
  const ide = spawnAcpBridge(["--url", url, "--verbose"], { OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_STATE_DIR: gw.stateDir });
  ides.push(ide);
  return ide;
}
const newSession = (ide: AcpIde) => ide.agent.request(acp.methods.agent.session.new, { cwd: projectDir, mcpServers: [] });
const prompt = (ide: AcpIde, sessionId: string, text: string) => ide.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("openclaw acp limits and faults", () => {
  it("session creation is limited to 120 per 10 s; the rest get a clear error", async () => {
    const ide = bridge();
    await initialize(ide);
    const results = await Promise.allSettled(Array.from({ length: 125 }, () => newSession(ide)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(120);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.reason.message).toMatch(/too many sessions opened \(limit 120 per 10 s\); retry in \d+ s/);
  });

  it("when the IDE goes away mid-prompt, the bridge aborts the gateway run and exits", async () => {
    const ide = bridge();
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ text: "nobody is listening", delayMs: 120_000 });
    const before = server.requests.length;
    void prompt(ide, sessionId, "long job").catch(() => {});
    await until(() => server.requests.length > before, "the model request");
    const { sock } = await openOperator(gw.url, gw.token);
    const running = await sock.request("chat.history", { sessionKey: `acp-bridge:${sessionId}` });
    const [runId] = running.payload.sessionInfo.activeRunIds;
    expect(runId).toBeTruthy();

    const exited = new Promise((resolve) => ide.proc.once("exit", resolve));
    ide.proc.stdin!.end();
    expect(await exited).toBe(0);
    // Left alone, the run would wait two minutes for the model: it ended because it was aborted.
    const ended = await sock.request("agent.wait", { runId, timeoutMs: 10_000 });
    expect(ended.payload).toMatchObject({ runId, status: "error", error: "aborted" });
    sock.close();
  });

  it("a connection lost and back within the grace: the prompt in flight still ends with the run's reply", async () => {
    const relay = await startRelay(gw.port);
    const ide = bridge(relay.url);
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ text: "slow but sure", delayMs: 1_500 });
    const before = server.requests.length;
    const pending = prompt(ide, sessionId, "take your time");
    await until(() => server.requests.length > before, "the model request");
    relay.cut();
    await until(() => ide.stderr().includes("gateway reconnected"), "the bridge to reconnect");
    expect((await pending).stopReason).toBe("end_turn");
    expect(ide.textOf(sessionId)).toBe("slow but sure");
    await ide.close();
    await relay.close();
  });

  it("a prompt in flight fails with a notice when the gateway stays away past the 5 s grace; the bridge reconnects later", async () => {
    const ide = bridge();
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ text: "never delivered", delayMs: 120_000 });
    const before = server.requests.length;
    const pending = prompt(ide, sessionId, "long task");
    const outcome = pending.then(
      () => "resolved",
      (err: Error) => err.message,
    );
    await until(() => server.requests.length > before, "the model request");

    const port = gw.port;
    await gw.stop("SIGKILL");
    await until(() => ide.stderr().includes("gateway disconnected"), "the bridge to notice the disconnect");
    expect(await outcome).toMatch(/the gateway connection was lost .* did not come back within 5 s/);
    expect(ide.textOf(sessionId)).toContain("The outcome of this prompt is unknown");

    // Calls while the gateway is away fail at once and say why.
    await expect(prompt(ide, sessionId, "anyone there?")).rejects.toMatchObject({ message: expect.stringContaining("the gateway is not connected") });

    restarted = spawnCli(["gateway", "run", "--port", String(port)], { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token });
    await restarted.waitForOutput(/"msg":"gateway listening"/, 20_000);
    await until(() => ide.stderr().includes("gateway reconnected"), "the bridge to reconnect");
    server.reset();
    server.enqueue({ text: "back again" });
    expect((await prompt(ide, sessionId, "hello again")).stopReason).toBe("end_turn");
    expect(ide.textOf(sessionId)).toContain("back again");
  });
});
