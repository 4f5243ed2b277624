import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { RecordedRequest } from "../fakes/model-server/types.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * A `/v1` request's sampling fields and token cap go to the model of its turn, over the configured
 * params, as OpenClaw forwards them (best effort: each API takes the ones it has). Real gateway,
 * the real OpenAI SDK, the fake model server recording what the model was sent.
 */
let model: FakeModelServer;
let gw: GatewayProcess;
let client: OpenAI;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder(() => ({ text: "sampled" }));
  const stateDir = makeTempDir();
  const config = fakeModelConfig(model, stateDir, {
    agents: {
      defaults: {
        workspace: path.join(stateDir, "workspace"),
        model: { primary: "fake/fake-model" },
        // A configured param the request's own value replaces, and one it leaves alone.
        models: { "fake/fake-model": { params: { temperature: 1.1, presence_penalty: 0.25 } } },
      },
    },
    gateway: { http: { endpoints: { chatCompletions: { enabled: true }, responses: { enabled: true } } } },
  });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  client = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: gw.token, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await model?.close();
});

/** The body of the model request `send` caused. */
async function modelBodyFor(send: () => Promise<unknown>): Promise<Record<string, any>> {
  const before = model.requests.length;
  await send();
  const request = model.requests.slice(before).find((r: RecordedRequest) => r.path === "/v1/chat/completions");
  expect(request, "a model request").toBeDefined();
  return request!.body;
}

describe("sampling fields of /v1 requests", () => {
  it("chat completions: temperature, top_p, penalties, seed, stop and the token cap reach the model", async () => {
    const body = await modelBodyFor(() =>
      client.chat.completions.create({
        model: "openclaw",
        messages: [{ role: "user", content: "be precise" }],
        temperature: 0.2,
        top_p: 0.9,
        frequency_penalty: 0.5,
        seed: 7,
        stop: ["END"],
        max_completion_tokens: 300,
        max_tokens: 100,
      }),
    );
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, frequency_penalty: 0.5, presence_penalty: 0.25, seed: 7, stop: ["END"], max_tokens: 300 });
  });

  it("a token cap over the model's own is the model's", async () => {
    const body = await modelBodyFor(() => client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "long" }], max_tokens: 100_000 }));
    expect(body.max_tokens).toBe(4096);
  });

  it("a request without them leaves the configured params as they are", async () => {
    const body = await modelBodyFor(() => client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "plain" }] }));
    expect(body).toMatchObject({ temperature: 1.1, presence_penalty: 0.25, max_tokens: 4096 });
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("top_p");
  });

  it("the Responses API: temperature, top_p and max_output_tokens", async () => {
    const body = await modelBodyFor(() => client.responses.create({ model: "openclaw", input: "brief", temperature: 0.4, top_p: 0.5, max_output_tokens: 64 }));
    expect(body).toMatchObject({ temperature: 0.4, top_p: 0.5, max_tokens: 64 });
  });
});
