import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeEmbedding, startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { RecordedRequest } from "../fakes/model-server/types.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * `POST /v1/embeddings` with the real OpenAI SDK against a real gateway: vectors from the
 * embedding model memory search is set up with, or from the provider `x-openclaw-model` names;
 * the fake model server's `/v1/embeddings` stands in for the provider.
 */
let model: FakeModelServer;
let gw: GatewayProcess;
let client: OpenAI;
let bare: GatewayProcess;

const float32 = (values: number[]) => Array.from(Float32Array.from(values));
const postJson = (base: string, pathname: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${base}${pathname}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  const providers = {
    fake: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "fake-model", contextWindow: 120000, maxTokens: 4096 }] },
    other: { baseUrl: `${model.url}/v1`, apiKey: "sk-other", api: "openai-completions", models: [] },
  };
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: { providers },
    memory: { search: { provider: "fake", model: "fake-embedding" } },
    gateway: { http: { endpoints: { chatCompletions: { enabled: true } } } },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  client = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: gw.token, maxRetries: 0 });
  const bareDir = makeTempDir();
  const bareConfig = {
    ...config,
    agents: { defaults: { workspace: path.join(bareDir, "workspace"), model: { primary: "fake/fake-model" } } },
    memory: { search: { provider: "none" } },
  };
  bare = await startGateway({ stateDir: bareDir, configFile: { name: "openclaw.json", content: JSON.stringify(bareConfig) } });
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await bare?.stop("SIGKILL");
  await model?.close();
});

const embeddingRequests = () => model.requests.filter((r: RecordedRequest) => r.path === "/v1/embeddings");

describe("POST /v1/embeddings", () => {
  it("embeds a list of texts with memory search's model (the SDK's base64 encoding)", async () => {
    const texts = ["rotate the deploy key", "my dog likes coffee"];
    const response = await client.embeddings.create({ model: "openclaw/default", input: texts });
    expect(response.object).toBe("list");
    expect(response.model).toBe("openclaw/default");
    expect(response.data.map((d) => d.index)).toEqual([0, 1]);
    response.data.forEach((item, i) => expect(item.embedding).toEqual(float32(fakeEmbedding(texts[i]!, 256))));
    expect(response.usage).toEqual({ prompt_tokens: 8, total_tokens: 8 });
    const sent = embeddingRequests().at(-1)!;
    expect(sent.body).toMatchObject({ model: "fake-embedding", input: texts });
    expect(sent.headers.authorization).toBe("Bearer sk-fake");
  });

  it("answers float arrays when asked, for a single string", async () => {
    const res = await postJson(gw.httpUrl, "/v1/embeddings", { model: "openclaw", input: "one text", encoding_format: "float" }, { authorization: `Bearer ${gw.token}` });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0].embedding).toEqual(float32(fakeEmbedding("one text", 256)));
  });

  it("x-openclaw-model picks another provider's embedding model, with that provider's key", async () => {
    await client.embeddings.create({ model: "openclaw", input: "hello" }, { headers: { "x-openclaw-model": "other/big-embedder" } });
    const sent = embeddingRequests().at(-1)!;
    expect(sent.body.model).toBe("big-embedder");
    expect(sent.headers.authorization).toBe("Bearer sk-other");
  });

  it("refuses what it cannot do, saying why", async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (err: unknown) => err as InstanceType<typeof OpenAI.APIError>,
      );
    const tokens = await refusal(client.embeddings.create({ model: "openclaw", input: [[1, 2, 3]] as unknown as string[] }));
    expect(tokens?.status).toBe(400);
    expect(tokens?.message).toMatch(/input\[0\]: token arrays are not supported; send the text/);
    const dims = await refusal(client.embeddings.create({ model: "openclaw", input: "x", dimensions: 64 }));
    expect(dims?.message).toMatch(/`dimensions` is not supported/);
    const agent = await refusal(client.embeddings.create({ model: "openclaw/nobody", input: "x" }));
    expect(agent?.status).toBe(400);
    expect(agent?.message).toMatch(/The agent 'nobody' does not exist/);
    const provider = await refusal(client.embeddings.create({ model: "openclaw", input: "x" }, { headers: { "x-openclaw-model": "nowhere/model" } }));
    expect(provider?.status).toBe(400);
    expect(provider?.message).toMatch(/provider "nowhere" is not configured/);
    model.setEmbeddingFault("http-500");
    try {
      const failed = await refusal(client.embeddings.create({ model: "openclaw", input: "x" }));
      expect(failed?.status).toBe(502);
      expect(failed?.message).toMatch(/embedding provider fake .* answered HTTP 500/);
    } finally {
      model.setEmbeddingFault(undefined);
    }
    const off = await postJson(bare.httpUrl, "/v1/embeddings", { model: "openclaw", input: "x" }, { authorization: `Bearer ${bare.token}` });
    expect(off.status).toBe(503);
    expect((await off.json()).error.message).toBe('Embeddings are not set up: memory.search.provider is "none": keyword ranking only.');
  });
});
