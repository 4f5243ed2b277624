import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * Issue 16, the OpenAI Responses API both ways: the real `openai` SDK is the client of the
 * gateway's `POST /v1/responses`, and the agent's model is itself an `api: "openai-responses"`
 * provider (a fake Responses server). Streaming events, `previous_response_id` continuing the
 * session, and OpenAI-shaped errors.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let client: OpenAI;

let stateDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeTempDir();
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "ws"), model: "resp/r1" } },
    models: { providers: { resp: { baseUrl: `${model.url}/v1`, apiKey: "sk-resp-backend-9999", api: "openai-responses", models: [{ id: "r1" }] } } },
    gateway: { http: { endpoints: { responses: { enabled: true } } } },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  client = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: gw.token!, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.stop();
  await model?.close();
});
beforeEach(() => model.reset());

const backendCalls = (): RecordedRequest[] => model.requests.filter((r) => r.path === "/v1/responses");
const inputTexts = (r: RecordedRequest): string[] => (r.body.input as any[]).filter((i) => i.role === "user").map((i) => (i.content as any[]).map((p) => p.text).join(""));

describe("POST /v1/responses through the gateway (openai SDK client, openai-responses backend)", () => {
  it("answers a plain request as a response object", async () => {
    model.enqueue({ text: "Hello from the Responses backend" });
    const response = await client.responses.create({ model: "openclaw", input: "hello there" });
    expect(response.object).toBe("response");
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe("completed");
    expect(response.output_text).toBe("Hello from the Responses backend");
    expect(response.usage).toMatchObject({ input_tokens: 25, output_tokens: 12, total_tokens: 37 });
    // The backend got the turn as a Responses request: instructions = system prompt, the user text as input.
    const call = backendCalls().at(-1)!;
    expect(typeof call.body.instructions).toBe("string");
    expect(inputTexts(call).at(-1)).toBe("hello there");
  });

  it("streams the OpenResponses events in order, text deltas joined", async () => {
    model.enqueue({ text: "a streamed reply in pieces" });
    const stream = await client.responses.create({ model: "openclaw", input: "stream please", stream: true });
    const types: string[] = [];
    let text = "";
    let completed: any;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    expect(text).toBe("a streamed reply in pieces");
    expect(types[0]).toBe("response.created");
    expect(types[1]).toBe("response.in_progress");
    expect(types.slice(-4)).toEqual(["response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"]);
    expect(types).toContain("response.output_item.added");
    expect(completed.output[0].content[0].text).toBe("a streamed reply in pieces");
  });

  it("previous_response_id continues that response's session; an unknown id is a 404 the SDK understands", async () => {
    model.enqueue({ text: "Nice to meet you, Ann." }, { text: "Your name is Ann." });
    const first = await client.responses.create({ model: "openclaw", input: "my name is Ann" });
    const second = await client.responses.create({ model: "openclaw", input: "what is my name?", previous_response_id: first.id });
    expect(second.output_text).toBe("Your name is Ann.");
    expect(second.previous_response_id).toBe(first.id);
    // The session's history reached the backend: both user turns are in the second request.
    expect(inputTexts(backendCalls().at(-1)!)).toEqual(["my name is Ann", "what is my name?"]);

    const error = await client.responses.create({ model: "openclaw", input: "x", previous_response_id: "resp_nope" }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.code).toBe("previous_response_not_found");
    expect(error.param).toBe("previous_response_id");
  });

  it("previous_response_id still continues its session after a gateway restart", async () => {
    model.enqueue({ text: "Noted: the code word is heron." }, { text: "The code word is heron." });
    const first = await client.responses.create({ model: "openclaw", input: "remember the code word heron" });
    await gw.stop("SIGKILL");
    gw = await startGateway({ stateDir, token: gw.token });
    client = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: gw.token!, maxRetries: 0 });
    const second = await client.responses.create({ model: "openclaw", input: "what is the code word?", previous_response_id: first.id });
    expect(second.output_text).toBe("The code word is heron.");
    expect(inputTexts(backendCalls().at(-1)!)).toEqual(["remember the code word heron", "what is the code word?"]);
  }, 60_000);

  it("bad input is a 400 naming the field, and nothing runs", async () => {
    const error = await client.responses.create({ model: "openclaw", input: 5 as never }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe("input");
    const tools = await client.responses.create({ model: "openclaw", input: [{ type: "function_call_output", output: "x" } as never] }).catch((e) => e);
    expect(tools).toBeInstanceOf(OpenAI.BadRequestError);
    expect(tools.message).toContain("input[0].call_id must be a string");
    expect(backendCalls()).toHaveLength(0);
  });

  it("a failing backend is a 502 (code server) when not streaming, and response.failed when streaming; the key never shows", async () => {
    model.setResponder(() => ({ status: 500, headers: { "retry-after-ms": "5" } }));
    const error = await client.responses.create({ model: "openclaw", input: "fail" }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(502);
    expect(error.code).toBe("server");
    expect(JSON.stringify(error.error)).not.toContain("sk-resp-backend");

    const stream = await client.responses.create({ model: "openclaw", input: "fail streaming", stream: true });
    const types: string[] = [];
    let failed: any;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.failed") failed = event.response;
    }
    expect(types.at(-1)).toBe("response.failed");
    expect(failed.status).toBe("failed");
    expect(failed.error.code).toBe("server");
  });

  it("a wrong token is a 401 in OpenAI's shape", async () => {
    const wrong = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: "not-the-token", maxRetries: 0 });
    const error = await wrong.responses.create({ model: "openclaw", input: "hi" }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
