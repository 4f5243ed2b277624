import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { validateConfig, type OpenClawConfig } from "../../../src/config/index.js";
import { resolveModel } from "../../../src/models/index.js";
import { isSelfHosted } from "../../../src/models/local-base-url.js";
import { createOllamaStream } from "../../../src/models/ollama-provider.js";
import { ollamaRequestBody } from "../../../src/models/ollama-request.js";
import { ollamaWireSettings } from "../../../src/models/ollama-settings.js";
import type { ModelMessage } from "../../../src/models/messages.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run, textOf, userText, WEATHER_TOOL } from "./stream-helpers.js";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const stream = createOllamaStream();

function config(raw: unknown): OpenClawConfig {
  return validateConfig(raw, {}).config;
}

describe("ollama: request settings", () => {
  const model = (extra = {}) => ({ ...fakeModel(server, "ollama"), ...extra });

  it("sends params as Ollama's options and request fields, and names what it cannot send", () => {
    const settings = ollamaWireSettings({
      model: model(),
      params: { num_ctx: 32768, temperature: 0.7, topP: 0.9, keep_alive: "15m", format: "json", streaming: false, maxTokens: 500 },
    });
    expect(settings.fields).toEqual({ options: { num_ctx: 32768, temperature: 0.7, top_p: 0.9, num_predict: 500 }, keep_alive: "15m", format: "json" });
    expect(settings.dropped).toEqual(["params.streaming (not sent to ollama)"]);
  });

  it("sizes num_ctx from the model entry's contextTokens when the params name none", () => {
    expect(ollamaWireSettings({ model: model({ contextTokens: 32_768 }) }).fields.options).toEqual({ num_ctx: 32_768, num_predict: 1024 });
    expect(ollamaWireSettings({ model: model({ contextTokens: 32_768 }), params: { num_ctx: 8192 } }).fields.options).toEqual({ num_ctx: 8192, num_predict: 1024 });
  });

  it("ignores a num_ctx that is not a positive number, saying so", () => {
    const settings = ollamaWireSettings({ model: model(), params: { num_ctx: 0 } });
    expect(settings.fields.options).toEqual({ num_predict: 1024 });
    expect(settings.dropped).toEqual(["params.num_ctx (0 is not a positive number)"]);
  });

  it("maps thinking levels to think: off is false, a level its effort, and only for a reasoning model", () => {
    expect(ollamaWireSettings({ model: model({ reasoning: true }), thinking: "off" }).fields.think).toBe(false);
    expect(ollamaWireSettings({ model: model({ reasoning: true }), thinking: "minimal" }).fields.think).toBe("low");
    expect(ollamaWireSettings({ model: model({ reasoning: true }), thinking: "xhigh" }).fields.think).toBe("high");
    const refused = ollamaWireSettings({ model: model({ reasoning: false }), thinking: "high" });
    expect(refused.fields.think).toBeUndefined();
    expect(refused.dropped[0]).toContain("not a reasoning model");
    // think: false is sent to any model.
    expect(ollamaWireSettings({ model: model({ reasoning: false }), thinking: "off" }).fields.think).toBe(false);
  });

  it("params.think (or thinking) holds when the turn asks for no level, or only for off", () => {
    expect(ollamaWireSettings({ model: model({ reasoning: true }), params: { thinking: "low" } }).fields.think).toBe("low");
    expect(ollamaWireSettings({ model: model({ reasoning: true }), params: { think: false } }).fields.think).toBe(false);
    expect(ollamaWireSettings({ model: model({ reasoning: true }), thinking: "off", params: { think: "high" } }).fields.think).toBe("high");
    expect(ollamaWireSettings({ model: model({ reasoning: true }), thinking: "medium", params: { think: false } }).fields.think).toBe("medium");
    expect(ollamaWireSettings({ model: model(), params: { think: "sometimes" } }).dropped[0]).toContain("params.think");
  });
});

describe("ollama: the request body", () => {
  it("replays thinking and tool calls beside the text, and tool results by tool name", () => {
    const messages: ModelMessage[] = [
      userText("weather?"),
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Check Paris." },
          { type: "text", text: "Checking." },
          { type: "toolCall", id: "c1", name: "get_weather", arguments: { city: "Paris" } },
        ],
        timestamp: 1,
      },
      { role: "toolResult", toolCallId: "c1", toolName: "get_weather", content: [{ type: "text", text: "sunny" }], isError: false, timestamp: 2 },
      {
        role: "user",
        content: [
          { type: "text", text: "and this?" },
          { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
        ],
        timestamp: 3,
      },
    ];
    const body = ollamaRequestBody(makeRequest(fakeModel(server, "ollama"), messages, [WEATHER_TOOL]));
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "weather?" },
      { role: "assistant", content: "Checking.", thinking: "Check Paris.", tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }] },
      { role: "tool", tool_name: "get_weather", content: "sunny" },
      { role: "user", content: "and this?", images: ["aGVsbG8="] },
    ]);
  });

  it("leaves images out for a text-only model, and truncation to the server of a public host", () => {
    const messages: ModelMessage[] = [{ role: "user", content: [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }], timestamp: 1 }];
    const body = ollamaRequestBody(makeRequest(fakeModel(server, "ollama", { input: ["text"], baseUrl: "https://ollama.com" }), messages));
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "[image omitted: image/png]" },
    ]);
    expect(body).not.toHaveProperty("truncate");
    expect(body).not.toHaveProperty("shift");
  });
});

describe("ollama: the stream", () => {
  it("streams thinking and text, and gives a tool call without an id one of its own", async () => {
    server.enqueue({ thinking: "Let me see.", text: "Looking it up.", toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
    const events = await run(stream, makeRequest(fakeModel(server, "ollama", { reasoning: true }), undefined, [WEATHER_TOOL]));
    expect(textOf(events, "thinking_delta")).toBe("Let me see.");
    expect(textOf(events)).toBe("Looking it up.");
    const done = last(events);
    if (done.type !== "done") throw new Error(`expected done, got ${JSON.stringify(done)}`);
    expect(done.stopReason).toBe("toolUse");
    const call = done.message.content.find((b) => b.type === "toolCall");
    expect(call).toMatchObject({ type: "toolCall", name: "get_weather", arguments: { city: "Oslo" } });
    expect(call?.type === "toolCall" && call.id).toMatch(/^ollama_call_/);
  });

  it("an error answer ends the call with Ollama's text and the URL called", async () => {
    server.enqueue({ status: 404, body: { error: 'model "qwen9" not found, try pulling it first' } });
    const end = last(await run(stream, makeRequest(fakeModel(server, "ollama", { id: "qwen9" }))));
    expect(end).toMatchObject({ type: "error", kind: "config", status: 404 });
    if (end.type !== "error") throw new Error("unreachable");
    expect(end.error).toContain('model "qwen9" not found, try pulling it first');
    expect(end.error).toContain(`called POST ${server.url}/api/chat`);
  });

  it("an overflow refused by a server that does not truncate is a context_length error (compaction follows)", async () => {
    server.enqueue({ status: 400, body: { error: "the input length exceeds the context length" } });
    const end = last(await run(stream, makeRequest(fakeModel(server, "ollama"))));
    expect(end).toMatchObject({ type: "error", kind: "context_length", retryable: false });
  });

  it("never sends the ollama-local placeholder as a key; sends a real one as a bearer token", async () => {
    await run(stream, makeRequest(fakeModel(server, "ollama", { apiKey: "ollama-local" })));
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    await run(stream, makeRequest(fakeModel(server, "ollama", { apiKey: "cloud-key-123456" })));
    expect(server.requests[1]!.headers.authorization).toBe("Bearer cloud-key-123456");
  });
});

describe("ollama: resolving a model", () => {
  it("the built-in ollama provider is the local server on its default port and needs no key", () => {
    const result = resolveModel("ollama/qwen3:8b", config({}), {});
    expect(result).toMatchObject({ ok: true, model: { provider: "ollama", id: "qwen3:8b", api: "ollama", baseUrl: "http://127.0.0.1:11434", keyOptional: true } });
    expect(result.ok && result.model.apiKey).toBeUndefined();
  });

  it("a local server is not sent OLLAMA_API_KEY from the environment (Ollama Cloud's), only a key written for it", () => {
    const env = { OLLAMA_API_KEY: "cloud-key-123456" };
    expect(resolveModel("ollama/qwen3:8b", config({}), env)).toMatchObject({ ok: true, model: { keyOptional: true } });
    expect((resolveModel("ollama/qwen3:8b", config({}), env) as { model: { apiKey?: string } }).model.apiKey).toBeUndefined();
    const written = config({ models: { providers: { ollama: { apiKey: "proxy-key-123456" } } } });
    expect(resolveModel("ollama/qwen3:8b", written, env)).toMatchObject({ ok: true, model: { apiKey: "proxy-key-123456" } });
  });

  it("a public Ollama host needs a key, and the placeholder is no key", () => {
    const raw = { models: { providers: { cloud: { api: "ollama", baseUrl: "https://ollama.com", apiKey: "ollama-local" } } } };
    const result = resolveModel("cloud/kimi-k2.5:cloud", config(raw), {});
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain("CLOUD_API_KEY");
    expect(resolveModel("cloud/kimi-k2.5:cloud", config(raw), { CLOUD_API_KEY: "real-key-1234" })).toMatchObject({ ok: true, model: { apiKey: "real-key-1234" } });
  });

  it("a baseUrl ending in /v1 does not resolve: the message names the root URL and the api that keeps /v1", () => {
    const builtin = resolveModel("ollama/qwen3:8b", config({ models: { providers: { ollama: { baseUrl: "http://127.0.0.1:11434/v1" } } } }), {});
    expect(builtin.ok).toBe(false);
    expect(!builtin.ok && builtin.message).toContain(
      'Set baseUrl to the server\'s root, "http://127.0.0.1:11434", or set models.providers.ollama.api: "openai-completions" to keep /v1',
    );
    expect(!builtin.ok && builtin.message).toContain('(api "ollama" is the built-in ollama provider\'s)');
    const compatible = resolveModel(
      "ollama/qwen3:8b",
      config({ models: { providers: { ollama: { baseUrl: "http://127.0.0.1:11434/v1", api: "openai-completions" } } } }),
      {},
      { requireKey: false },
    );
    expect(compatible).toMatchObject({ ok: true, model: { api: "openai-completions" } });
  });

  it("a model entry's params ride on the resolved model", () => {
    const raw = { models: { providers: { ollama: { api: "ollama", baseUrl: "http://gpu-box:11434", models: [{ id: "qwen3:32b", params: { keep_alive: "15m" } }] } } } };
    expect(resolveModel("ollama/qwen3:32b", config(raw), {})).toMatchObject({ ok: true, model: { params: { keep_alive: "15m" }, keyOptional: true } });
  });

  it("knows the local network's hosts", () => {
    for (const url of [
      "http://127.0.0.1:11434",
      "http://ollama-host:11434",
      "http://192.168.1.20:11434",
      "http://10.0.0.5",
      "http://100.101.102.103",
      "http://[fd12::1]:11434",
      "http://box.local:11434",
    ]) {
      expect(isSelfHosted(url), url).toBe(true);
    }
    for (const url of ["https://ollama.com", "http://8.8.8.8:11434", "http://172.32.0.1"]) expect(isSelfHosted(url), url).toBe(false);
  });
});
