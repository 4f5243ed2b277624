import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicStream } from "../../../src/models/anthropic-provider.js";
import { createOpenAICompletionsStream } from "../../../src/models/openai-completions-provider.js";
import { createOpenAIResponsesStream } from "../../../src/models/openai-responses-provider.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run, terminalCount, textOf, userText, WEATHER_TOOL } from "./stream-helpers.js";
import { PROVIDER_STREAMS } from "./provider-streams.js";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe.each(PROVIDER_STREAMS)("$api: replies through the real SDK", ({ api, stream, path }) => {
  it("streams a text reply in several deltas and ends with done", async () => {
    server.enqueue({ text: "Hello from the fake model" });
    const events = await run(stream, makeRequest(fakeModel(server, api)));
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
    expect(textOf(events)).toBe("Hello from the fake model");
    expect(terminalCount(events)).toBe(1);
    const done = last(events);
    expect(done.type).toBe("done");
    if (done.type !== "done") return;
    expect(done.stopReason).toBe("stop");
    expect(done.message).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Hello from the fake model" }],
      provider: "fake",
      model: "fake-model",
      stopReason: "stop",
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe(path);
    expect(server.requests[0]!.body.stream).toBe(true);
  });

  it("reports usage, including cache reads", async () => {
    server.enqueue({ text: "counted", usage: { input: 40, output: 7, cacheRead: 300, cacheWrite: api === "anthropic-messages" ? 12 : 0 } });
    const events = await run(stream, makeRequest(fakeModel(server, api)));
    // Ollama reports evaluated prompt tokens and generated tokens only: no cache counts.
    const expected = { input: 40, output: 7, cacheRead: api === "ollama" ? 0 : 300, cacheWrite: api === "anthropic-messages" ? 12 : 0 };
    const usages = events.filter((e) => e.type === "usage");
    expect(usages.length).toBeGreaterThan(0);
    expect(usages[usages.length - 1]).toEqual({ type: "usage", usage: expected });
    const done = last(events);
    expect(done.type === "done" && done.message.usage).toEqual(expected);
  });

  it("assembles one tool call from argument chunks", async () => {
    server.enqueue({ text: "Checking.", toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris", unit: "c" } }] });
    const events = await run(stream, makeRequest(fakeModel(server, api), undefined, [WEATHER_TOOL]));
    const calls = events.filter((e) => e.type === "toolcall");
    expect(calls).toEqual([{ type: "toolcall", call: { type: "toolCall", id: "call_1", name: "get_weather", arguments: { city: "Paris", unit: "c" } } }]);
    const done = last(events);
    expect(done.type === "done" && done.stopReason).toBe("toolUse");
    expect(done.type === "done" && done.message.content.map((b) => b.type)).toEqual(["text", "toolCall"]);
  });

  it("assembles two parallel tool calls, in order", async () => {
    server.enqueue({
      toolCalls: [
        { id: "call_a", name: "get_weather", arguments: { city: "Paris" } },
        { id: "call_b", name: "get_weather", arguments: { city: "Rome", unit: "f" } },
      ],
    });
    const events = await run(stream, makeRequest(fakeModel(server, api), undefined, [WEATHER_TOOL]));
    const calls = events.flatMap((e) => (e.type === "toolcall" ? [e.call] : []));
    expect(calls).toEqual([
      { type: "toolCall", id: "call_a", name: "get_weather", arguments: { city: "Paris" } },
      { type: "toolCall", id: "call_b", name: "get_weather", arguments: { city: "Rome", unit: "f" } },
    ]);
    const done = last(events);
    expect(done.type === "done" && done.message.content).toEqual(calls);
  });

  it("maps a max-tokens stop to length", async () => {
    server.enqueue({ text: "cut sho", stopReason: "length" });
    const done = last(await run(stream, makeRequest(fakeModel(server, api))));
    expect(done.type === "done" && done.stopReason).toBe("length");
  });

  it("sends tools, the system prompt and the key as the SDK does", async () => {
    await run(stream, makeRequest(fakeModel(server, api, { headers: { "x-custom": "yes" } }), undefined, [WEATHER_TOOL]));
    const [request] = server.requests;
    expect(request!.headers.authorization).toBe("Bearer sk-test-secret-key-123456");
    expect(request!.headers["x-custom"]).toBe("yes");
    if (api === "anthropic-messages") {
      expect(request!.headers["anthropic-version"]).toBeTruthy();
      expect(request!.body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
      expect(request!.body.tools).toEqual([{ name: "get_weather", description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters }]);
      expect(request!.body.max_tokens).toBe(1024);
    } else if (api === "ollama") {
      expect(request!.body.messages).toEqual([
        { role: "system", content: "You are a test." },
        { role: "user", content: "hi" },
      ]);
      expect(request!.body.tools).toEqual([{ type: "function", function: { name: "get_weather", description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } }]);
      // A server on this machine refuses an input over its window instead of cutting it.
      expect(request!.body).toMatchObject({ stream: true, truncate: false, shift: false, options: { num_predict: 1024 } });
    } else if (api === "openai-responses") {
      expect(request!.body.instructions).toBe("You are a test.");
      expect(request!.body.input).toEqual([{ role: "user", content: [{ type: "input_text", text: "hi" }] }]);
      expect(request!.body.tools).toEqual([{ type: "function", name: "get_weather", description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters, strict: false }]);
      expect(request!.body).toMatchObject({ stream: true, store: false, max_output_tokens: 1024 });
    } else {
      expect(request!.body.messages[0]).toEqual({ role: "system", content: "You are a test." });
      expect(request!.body.tools).toEqual([{ type: "function", function: { name: "get_weather", description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } }]);
      expect(request!.body.stream_options).toEqual({ include_usage: true });
      expect(request!.body.max_tokens).toBe(1024);
    }
  });
});

describe("thinking", () => {
  it("anthropic: streams thinking deltas and keeps the signature on the block", async () => {
    server.enqueue({ thinking: "Let me think about Paris.", text: "Sunny." });
    const events = await run(createAnthropicStream(), makeRequest(fakeModel(server, "anthropic-messages")));
    expect(events.filter((e) => e.type === "thinking_delta").length).toBeGreaterThan(1);
    expect(textOf(events, "thinking_delta")).toBe("Let me think about Paris.");
    const done = last(events);
    expect(done.type === "done" && done.message.content).toEqual([
      { type: "thinking", thinking: "Let me think about Paris.", signature: "sig_0_fake" },
      { type: "text", text: "Sunny." },
    ]);
  });

  it("openai-completions: reads reasoning_content as thinking", async () => {
    server.enqueue({ thinking: "pondering", text: "done" });
    const events = await run(createOpenAICompletionsStream(), makeRequest(fakeModel(server, "openai-completions")));
    expect(textOf(events, "thinking_delta")).toBe("pondering");
    const done = last(events);
    expect(done.type === "done" && done.message.content).toEqual([
      { type: "thinking", thinking: "pondering" },
      { type: "text", text: "done" },
    ]);
  });
});

describe("endpoints", () => {
  it("anthropic: a configured baseUrl ending in /v1 still reaches /v1/messages", async () => {
    const events = await run(createAnthropicStream(), makeRequest(fakeModel(server, "anthropic-messages", { baseUrl: `${server.url}/v1/` })));
    expect(last(events).type).toBe("done");
    expect(server.requests[0]!.path).toBe("/v1/messages");
  });

  it("openai-completions: the real OpenAI endpoint gets max_completion_tokens", async () => {
    const model = fakeModel(server, "openai-completions", { provider: "openai" });
    await run(createOpenAICompletionsStream(), { ...makeRequest(model), maxTokens: 77, temperature: 0.2 });
    expect(server.requests[0]!.body).toMatchObject({ max_completion_tokens: 77, temperature: 0.2 });
    expect(server.requests[0]!.body.max_tokens).toBeUndefined();
  });
});

describe("openai-responses", () => {
  it("sends a tool round as function_call / function_call_output items and thinking as reasoning.effort", async () => {
    const stream = createOpenAIResponsesStream();
    const model = fakeModel(server, "openai-responses", { reasoning: true });
    const messages = [
      userText("weather in Paris?"),
      {
        role: "assistant" as const,
        content: [
          { type: "text" as const, text: "Checking." },
          { type: "toolCall" as const, id: "call_9", name: "get_weather", arguments: { city: "Paris" } },
        ],
        timestamp: 1,
      },
      { role: "toolResult" as const, toolCallId: "call_9", toolName: "get_weather", content: [{ type: "text" as const, text: "sunny" }], isError: false, timestamp: 2 },
    ];
    server.enqueue({ thinking: "Easy.", text: "It is sunny." });
    const events = await run(stream, { ...makeRequest(model, messages, [WEATHER_TOOL]), thinking: "low", params: { temperature: 0.4 } });
    const done = last(events);
    expect(done.type === "done" && done.message.content).toEqual([
      { type: "thinking", thinking: "Easy." },
      { type: "text", text: "It is sunny." },
    ]);
    const body = server.requests.at(-1)!.body;
    expect(body.input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "weather in Paris?" }] },
      { role: "assistant", content: "Checking." },
      { type: "function_call", call_id: "call_9", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "function_call_output", call_id: "call_9", output: "sunny" },
    ]);
    expect(body.reasoning).toEqual({ effort: "low" });
    expect(body.temperature).toBe(0.4);
  });

  it("reads a streamed function call and ends with toolUse", async () => {
    server.enqueue({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Oslo" } }] });
    const events = await run(createOpenAIResponsesStream(), makeRequest(fakeModel(server, "openai-responses"), undefined, [WEATHER_TOOL]));
    const done = last(events);
    expect(done.type === "done" && done.stopReason).toBe("toolUse");
    expect(events.filter((e) => e.type === "toolcall")).toEqual([{ type: "toolcall", call: { type: "toolCall", id: "call_1", name: "get_weather", arguments: { city: "Oslo" } } }]);
  });
});
