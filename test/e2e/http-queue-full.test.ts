import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { holdAnswersTo } from "../helpers/queue-gateway.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * A `/v1/chat/completions` request the session's full queue refuses (`messages.queue.drop: new`)
 * is the gateway's own limit, not the model provider's: 429 with the queue's notice, not 502.
 */
let model: FakeModelServer;
let gw: GatewayProcess;
beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  const config = JSON.parse(fakeModelConfig(model, stateDir));
  config.messages = { queue: { mode: "followup", cap: 1, drop: "new" } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
});
afterAll(async () => {
  await gw?.stop();
  await model?.close();
});

const SESSION = "agent:main:http-queue-full";

function complete(content: string): Promise<Response> {
  return fetch(`${gw.httpUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json", "x-openclaw-session-key": SESSION },
    body: JSON.stringify({ model: "openclaw", messages: [{ role: "user", content }] }),
  });
}

describe("HTTP turns and a full session queue", () => {
  it("a request the full queue refuses answers 429 with the queue's notice; the running and the queued one are answered", async () => {
    const [held] = holdAnswersTo(model, ["running"]);
    const running = complete("running");
    await held!.arrived;
    const queued = complete("queued");
    const { sock } = await openOperator(gw.url, gw.token);
    // The queued message is in the session's transcript before the next one arrives.
    for (const deadline = Date.now() + 10_000; !JSON.stringify((await sock.request("chat.history", { sessionKey: SESSION })).payload).includes("queued"); ) {
      if (Date.now() > deadline) throw new Error("the queued message was not accepted within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    sock.close();
    const refused = await complete("refused");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { message: expect.stringMatching(/queue/), type: "api_error", code: "queue_full" } });
    held!.release();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
  }, 60_000);
});
