import type { ModelApi, ModelMessage, ModelRequest, ModelStreamEvent, StreamModelFn, ToolSpec } from "../../../src/agents/types.js";
import type { ProviderModel } from "../../../src/models/index.js";
import type { FakeModelServer } from "../../fakes/model-server.js";

export const TEST_KEY = "sk-test-secret-key-123456";

/** A resolved model pointing at the fake server, with the base URL each SDK expects (no SDK retries). */
export function fakeModel(server: FakeModelServer, api: ModelApi, overrides: Partial<ProviderModel> = {}): ProviderModel {
  return {
    ref: `fake/${api}`,
    provider: "fake",
    id: "fake-model",
    api,
    // The OpenAI SDK's base URL includes /v1; the Anthropic and Ollama ones are the origin.
    baseUrl: api === "anthropic-messages" || api === "ollama" ? server.url : `${server.url}/v1`,
    apiKey: TEST_KEY,
    contextWindow: 128_000,
    maxTokens: 1024,
    reasoning: false,
    input: ["text", "image"],
    // One request per call, as failover asks while it has alternatives; tests of the SDK's own retries set it.
    sdkMaxRetries: 0,
    ...overrides,
  };
}

export function userText(text: string): ModelMessage {
  return { role: "user", content: text, timestamp: Date.now() };
}

export function makeRequest(model: ProviderModel, messages: ModelMessage[] = [userText("hi")], tools: ToolSpec[] = []): ModelRequest {
  return { model, systemPrompt: "You are a test.", messages, tools };
}

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export async function run(streamFn: StreamModelFn, request: ModelRequest, signal = new AbortController().signal): Promise<ModelStreamEvent[]> {
  return collect(streamFn(request, signal));
}

export function last(events: ModelStreamEvent[]): ModelStreamEvent {
  const event = events[events.length - 1];
  if (!event) throw new Error("the stream produced no events");
  return event;
}

export function textOf(events: ModelStreamEvent[], type: "text_delta" | "thinking_delta" = "text_delta"): string {
  return events.flatMap((e) => (e.type === type ? [e.delta] : [])).join("");
}

/** Each stream ends with exactly one done or error, and nothing after it. */
export function terminalCount(events: ModelStreamEvent[]): number {
  return events.filter((e) => e.type === "done" || e.type === "error").length;
}

export const WEATHER_TOOL: ToolSpec = {
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } }, required: ["city"] },
};
