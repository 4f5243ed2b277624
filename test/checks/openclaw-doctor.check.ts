import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { runRealOpenclaw } from "../helpers/real-openclaw.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

/**
 * OpenClaw's own `openclaw doctor --non-interactive` (the npm package, under Node 24) reading this
 * gateway's `doctor.memory.status` and `status`. Run by `test/checks/openclaw-cli.sh doctor`, which
 * provides Node 24 and the package (OPENCLAW_CHECK_NODE, OPENCLAW_CHECK_CLI).
 */

/** A doctor run loads much of OpenClaw: on a busy 2-core machine it takes tens of seconds. */
const DOCTOR_TIMEOUT_MS = 240_000;

let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake-embed" } } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir, { memory }) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

const doctor = () => runRealOpenclaw(["doctor", "--non-interactive"], { port: gw.port, token: gw.token! }, DOCTOR_TIMEOUT_MS);

describe("real OpenClaw `doctor --non-interactive` against this gateway", () => {
  it(
    "prints the gateway's memory readiness: ready once the provider answered",
    async () => {
      const probed = await sock.request("doctor.memory.status", { probe: true });
      expect(probed.payload.embedding).toEqual({ ok: true, checked: true });
      const run = await doctor();
      expect(run.code, run.output).toBe(0);
      expect(run.text).not.toContain("unknown method: doctor.memory.status");
      expect(run.text).not.toContain("gateway memory probe unavailable");
      expect(run.text).toContain("The running gateway reports memory embeddings are ready for the default agent.");
      // The gateway's version, as OpenClaw's doctor reads it from `status`, is ours, not Node's.
      expect(run.text).not.toContain(`the running Gateway is OpenClaw ${process.version}`);
    },
    DOCTOR_TIMEOUT_MS + 10_000,
  );

  it(
    "prints the provider's failure as the gateway reports it",
    async () => {
      server.setEmbeddingFault("http-500");
      try {
        const probed = await sock.request("doctor.memory.status", { probe: true });
        expect(probed.payload.embedding).toMatchObject({ ok: false, checked: true });
        const run = await doctor();
        expect(run.code, run.output).toBe(0);
        expect(run.text).not.toContain("unknown method: doctor.memory.status");
        expect(run.text).toContain("Gateway memory probe for default agent is not ready: embedding provider fake");
        expect(run.text).toContain("answered HTTP 500");
        expect(run.text).not.toContain("sk-fake-embed");
      } finally {
        server.setEmbeddingFault(undefined);
      }
    },
    DOCTOR_TIMEOUT_MS + 10_000,
  );
});
