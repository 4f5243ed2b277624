import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { RecordedRequest } from "../fakes/model-server/types.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * Client tools on the OpenAI-compatible API, with the real OpenAI SDK against a real gateway and
 * the fake model: the request's function tools are offered to the model beside the agent's own;
 * the model calling one ends the run with `tool_calls` (Chat Completions) or `function_call` items
 * (Responses); the client's follow-up with the results continues the conversation.
 */
let model: FakeModelServer;
let gw: GatewayProcess;
let client: OpenAI;
let stateDir: string;

const WEATHER: OpenAI.ChatCompletionTool = {
  type: "function",
  function: { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeTempDir();
  const config = fakeModelConfig(model, stateDir, { gateway: { http: { endpoints: { chatCompletions: { enabled: true }, responses: { enabled: true } } } } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  client = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: gw.token, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await model?.close();
});

const chatRequests = () => model.requests.filter((r: RecordedRequest) => r.path === "/v1/chat/completions");

describe("client tools on /v1/chat/completions", () => {
  it("the model's call of a client tool comes back as tool_calls; the results continue the session", async () => {
    model.enqueue({ text: "Let me check.", toolCalls: [{ id: "call_w1", name: "get_weather", arguments: { city: "Paris" } }] });
    const before = chatRequests().length;
    const first = await client.chat.completions.create({ model: "openclaw", user: "weather-app", tools: [WEATHER], messages: [{ role: "user", content: "weather in Paris?" }] });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBe("Let me check.");
    expect(choice.message.tool_calls).toEqual([{ id: "call_w1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);
    // Offered beside the agent's own tools, with the client's schema; one model call, no tool run here.
    const offered = chatRequests()[before]!.body.tools.map((t: any) => t.function.name);
    expect(offered).toContain("get_weather");
    expect(offered).toContain("read");
    expect(chatRequests().length).toBe(before + 1);

    model.enqueue({ text: "It is 18°C and sunny in Paris." });
    const second = await client.chat.completions.create({
      model: "openclaw",
      user: "weather-app",
      tools: [WEATHER],
      messages: [
        { role: "user", content: "weather in Paris?" },
        { role: "assistant", content: "Let me check.", tool_calls: choice.message.tool_calls! },
        { role: "tool", tool_call_id: "call_w1", content: '{"temp":18,"sky":"sunny"}' },
      ],
    });
    expect(second.choices[0]!.finish_reason).toBe("stop");
    expect(second.choices[0]!.message.content).toBe("It is 18°C and sunny in Paris.");
    // The model saw its call, the hand-off, and the client's result as the next message.
    const messages = chatRequests().at(-1)!.body.messages;
    const call = messages.findIndex((m: any) => m.tool_calls?.[0]?.id === "call_w1");
    expect(messages[call + 1]).toMatchObject({ role: "tool", tool_call_id: "call_w1" });
    expect(messages[call + 1].content).toContain("Sent to the client");
    expect(messages.at(-1)).toEqual({ role: "user", content: 'Tool result of get_weather (call_w1):\n{"temp":18,"sky":"sunny"}' });
  });

  it("streams the text, then the tool calls, then finish_reason tool_calls", async () => {
    model.enqueue({ text: "Checking.", toolCalls: [{ id: "call_s1", name: "get_weather", arguments: { city: "Oslo" } }] });
    const stream = await client.chat.completions.create({ model: "openclaw", stream: true, tools: [WEATHER], messages: [{ role: "user", content: "weather in Oslo?" }] });
    let text = "";
    const calls: unknown[] = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? "";
      calls.push(...(delta?.tool_calls ?? []));
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe("Checking.");
    expect(calls).toEqual([{ index: 0, id: "call_s1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }]);
    expect(finish).toBe("tool_calls");
  });

  it("a stateless follow-up carries the whole exchange as the conversation so far", async () => {
    model.enqueue({ text: "Oslo is cold today." });
    await client.chat.completions.create({
      model: "openclaw",
      tools: [WEATHER],
      messages: [
        { role: "user", content: "weather in Oslo?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_s1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
        { role: "tool", tool_call_id: "call_s1", content: "-3°C" },
      ],
    });
    const last = chatRequests().at(-1)!.body.messages.at(-1);
    expect(last.content).toContain('[called get_weather with {"city":"Oslo"} (call_s1)]');
    expect(last.content).toContain("[Current message]\nTool result of get_weather (call_s1):\n-3°C");
  });

  it("tool_choice pinning a function offers only that client tool, and a run without the call is a 502", async () => {
    const search: OpenAI.ChatCompletionTool = { type: "function", function: { name: "search_docs", parameters: { type: "object", properties: {} } } };
    model.enqueue({ text: "I will just answer." });
    const before = chatRequests().length;
    const refused = await client.chat.completions
      .create({
        model: "openclaw",
        tools: [WEATHER, search],
        tool_choice: { type: "function", function: { name: "search_docs" } },
        messages: [{ role: "user", content: "find it" }],
      })
      .catch((err: unknown) => err as InstanceType<typeof OpenAI.APIError>);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toMatch(/without calling the client tool search_docs, which tool_choice requires/);
    const sent = chatRequests()[before]!.body;
    const names = sent.tools.map((t: any) => t.function.name);
    expect(names).toContain("search_docs");
    expect(names).not.toContain("get_weather");
    expect(sent.messages[0].content).toContain("Call the client tool search_docs before you answer");
  });

  it("a client tool named like an agent tool replaces it for the turn, and is never run here", async () => {
    const read: OpenAI.ChatCompletionTool = {
      type: "function",
      function: { name: "read", description: "Read the client's clipboard", parameters: { type: "object", properties: {} } },
    };
    model.enqueue({ toolCalls: [{ id: "call_r1", name: "read", arguments: {} }] });
    const before = chatRequests().length;
    const completion = await client.chat.completions.create({ model: "openclaw", tools: [read], messages: [{ role: "user", content: "what is on my clipboard?" }] });
    expect(completion.choices[0]!.message.tool_calls).toEqual([{ id: "call_r1", type: "function", function: { name: "read", arguments: "{}" } }]);
    expect(completion.choices[0]!.message.content).toBeNull();
    const readTools = chatRequests()[before]!.body.tools.filter((t: any) => t.function.name === "read");
    expect(readTools).toEqual([{ type: "function", function: { name: "read", description: "Read the client's clipboard", parameters: { type: "object", properties: {} } } }]);
    expect(chatRequests().length).toBe(before + 1);
  });
});

describe("client tools on /v1/responses", () => {
  it("a call comes back as a function_call item; function_call_output continues through previous_response_id", async () => {
    model.enqueue({ toolCalls: [{ id: "call_r9", name: "get_weather", arguments: { city: "Rome" } }] });
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: false },
    ];
    const first = await client.responses.create({ model: "openclaw", tools, input: "weather in Rome?" });
    expect(first.output).toEqual([expect.objectContaining({ type: "function_call", call_id: "call_r9", name: "get_weather", arguments: '{"city":"Rome"}', status: "completed" })]);
    expect(first.tools).toEqual([expect.objectContaining({ type: "function", name: "get_weather" })]);

    model.enqueue({ text: "Rome: 25°C." });
    const second = await client.responses.create({
      model: "openclaw",
      tools,
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: "call_r9", output: "25°C" }],
    });
    expect(second.output_text).toBe("Rome: 25°C.");
    expect(chatRequests().at(-1)!.body.messages.at(-1)).toEqual({ role: "user", content: "Tool result (call_r9):\n25°C" });
  });

  it("streams function_call items with their arguments", async () => {
    model.enqueue({ text: "One moment.", toolCalls: [{ id: "call_r10", name: "get_weather", arguments: { city: "Lima" } }] });
    const stream = await client.responses.create({
      model: "openclaw",
      stream: true,
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: {} }, strict: false }],
      input: "weather in Lima?",
    });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.completed") completed = event.response;
    }
    expect(types).toContain("response.function_call_arguments.done");
    expect(completed?.output.map((item) => item.type)).toEqual(["message", "function_call"]);
    expect(completed?.output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text: "One moment." }] });
    expect(completed?.output[1]).toMatchObject({ type: "function_call", call_id: "call_r10", arguments: '{"city":"Lima"}' });
  });
});
