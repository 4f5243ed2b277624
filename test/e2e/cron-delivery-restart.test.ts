import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * A one-shot `--delete-after-run` job whose gateway is killed while its reply is being delivered:
 * the next start delivers it (once more, under the run's Idempotency-Key), and only then is the
 * job removed.
 */

interface Received {
  idempotencyKey: string;
  body: { runId: string; text: string };
}

let model: FakeModelServer;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
/** The receiver leaves the first POST unanswered, so the gateway is killed in the middle of it. */
let hangFirst = true;
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  model = await startFakeModelServer();
  receiver = http.createServer((req, res) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => {
      received.push({ idempotencyKey: String(req.headers["idempotency-key"]), body: JSON.parse(data) });
      if (hangFirst) {
        hangFirst = false;
        return;
      }
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cron-result`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await model.close();
});
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.stop("SIGKILL");
});

async function start(stateDir: string): Promise<GatewayProcess> {
  const gw = await startGateway({
    stateDir,
    configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { cron: { webhookSsrfPolicy: { allowedHostnames: ["127.0.0.1"] } } }) },
  });
  gateways.push(gw);
  return gw;
}

const cli = (gw: GatewayProcess, args: string[]) => runCli(args, { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });

describe("a cron reply owed across a SIGKILL", { timeout: 90_000 }, () => {
  it("a --delete-after-run job killed mid-delivery posts its reply after the restart, then is removed", async () => {
    model.setResponder(() => ({ text: "Time to stretch." }));
    const stateDir = makeTempDir("openclaw-cron-owed-kill-");
    let gw = await start(stateDir);
    const added = await cli(gw, ["cron", "add", "--name", "stretch", "--at", "1h", "--message", "remind me to stretch", "--webhook", receiverUrl, "--delete-after-run", "--json"]);
    expect(added.code, added.output).toBe(0);
    const jobId = JSON.parse(added.output).job.id as string;
    const run = JSON.parse((await cli(gw, ["cron", "run", jobId, "--json"])).output);
    expect(run).toMatchObject({ ran: true });
    await waitUntil(() => received.length === 1, 20_000, "the first webhook POST");
    await gw.stop("SIGKILL");
    gateways.splice(0);
    gw = await start(stateDir);
    await waitUntil(() => received.length === 2, 20_000, "the webhook POST resent after the restart");
    expect(received.map((r) => [r.idempotencyKey, r.body.runId, r.body.text])).toEqual([
      [run.runId, run.runId, "Time to stretch."],
      [run.runId, run.runId, "Time to stretch."],
    ]);
    let runs: { runId: string; deliveryStatus: string }[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && runs[0]?.deliveryStatus !== "delivered"; ) {
      runs = JSON.parse((await cli(gw, ["cron", "runs", jobId, "--json"])).output).entries;
    }
    expect(runs).toEqual([expect.objectContaining({ runId: run.runId, status: "ok", deliveryStatus: "delivered" })]);
    const job = await cli(gw, ["gateway", "call", "cron.get", "--params", JSON.stringify({ id: jobId })]);
    expect(job.output).toMatch(/cron job not found/);
  });
});
