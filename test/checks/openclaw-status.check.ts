import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeOtlpCollector, type FakeOtlpCollector } from "../fakes/otlp-collector.js";
import { askAndWait } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * OpenClaw's own CLI (the npm package, under Node 24) reading this gateway's stability stream:
 * `openclaw status --all` and `openclaw doctor` call `diagnostics.stability` for the delivery
 * telemetry and the telemetry exporters, and `openclaw gateway stability` prints it. Run by
 * `test/checks/openclaw-cli.sh status`, which provides Node 24 and the package (OPENCLAW_CHECK_NODE,
 * OPENCLAW_CHECK_CLI).
 */
const NODE = process.env.OPENCLAW_CHECK_NODE ?? "";
const CLI = process.env.OPENCLAW_CHECK_CLI ?? "";

let model: FakeModelServer;
let collector: FakeOtlpCollector;
let gw: GatewayProcess;
let home: string;

/** Runs OpenClaw's CLI with a home of its own whose config names this gateway's port and token; resolves with everything it printed. */
function openclaw(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [CLI, ...args],
      { cwd: home, env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1", TERM: "dumb" }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

beforeAll(async () => {
  if (!fs.existsSync(NODE) || !fs.existsSync(CLI)) throw new Error("run this check through `test/checks/openclaw-cli.sh status`: it provides Node 24 and the openclaw package");
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `fake model heard: ${lastUserText(req)}` }));
  collector = await startFakeOtlpCollector();
  const stateDir = makeTempDir();
  gw = await startGateway({
    stateDir,
    configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { diagnostics: { otel: { endpoint: collector.endpoint } } }) },
  });
  // One traced turn: the OTLP exporter starts and reports its health.
  const { sock } = await openOperator(gw.url, gw.token);
  try {
    await askAndWait(sock, "main", "hello");
  } finally {
    sock.close();
  }
  await collector.waitFor((spans) => spans.length > 0);
  home = makeTempDir();
  fs.mkdirSync(path.join(home, ".openclaw"), { recursive: true });
  fs.writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ gateway: { port: gw.port, auth: { mode: "token", token: gw.token } } }));
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await collector?.close();
  await model?.close();
});

describe("OpenClaw's CLI reading this gateway's stability stream", () => {
  it("status --all shows the delivery telemetry and the OTLP exporter, not an unknown method", async () => {
    const { output } = await openclaw(["status", "--all"]);
    expect(output).not.toContain("unknown method");
    expect(output).toContain("Inbound delivery telemetry: received 0 · dispatch 0/0 · turns 0 · processed 0");
    expect(output).toContain("Telemetry exporters");
    expect(output).toContain("diagnostics-otel · traces · started · OTLP/HTTP protobuf (explicit endpoint)");
  });

  it("doctor reads the exporter's health instead of failing", async () => {
    const { output } = await openclaw(["doctor", "--non-interactive"]);
    expect(output).not.toContain("Exporter diagnostics failed");
    expect(output).not.toContain("unknown method: diagnostics.stability");
    expect(output).toContain("diagnostics-otel · traces · started");
  });

  it("gateway stability prints the stream's memory readings", async () => {
    const { code, output } = await openclaw(["gateway", "stability", "--json"]);
    expect(code, output).toBe(0);
    const snapshot = JSON.parse(output.slice(output.indexOf("{")));
    expect(snapshot.capacity).toBe(1000);
    expect(snapshot.summary.byType["diagnostic.memory.sample"]).toBeGreaterThanOrEqual(1);
  });
});
