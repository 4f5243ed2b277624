import { describe, expect, it } from "vitest";
import type { ModelMessage, ModelRequest } from "../../../src/agents/types.js";
import { asciiJson, openAIRequestBody } from "../../../src/models/openai-request-json.js";
import { toOpenAIParams } from "./openai-params-oracle.js";
import { ModelProjection, projectMessage } from "../../../src/models/model-projection.js";
import type { ProviderModel } from "../../../src/models/types.js";
import { WEATHER_TOOL } from "./stream-helpers.js";

const t = 1_700_000_000_000;
const model = (overrides: Partial<ProviderModel> = {}): ProviderModel =>
  ({
    ref: "fake/m",
    provider: "fake",
    id: "m-1",
    api: "openai-completions",
    baseUrl: "http://127.0.0.1:1/v1",
    apiKey: "k",
    input: ["text", "image"],
    contextWindow: 128_000,
    maxTokens: 4096,
    reasoning: false,
    ...overrides,
  }) as ProviderModel;

const image = { type: "image" as const, mimeType: "image/png", data: "aGVsbG8=" };
const conversation: ModelMessage[] = [
  { role: "user", content: [{ type: "text", text: "Look — “quoted”\n\u2028" }, image], timestamp: t },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hmm", signature: "s" },
      { type: "toolCall", id: "a", name: "get_weather", arguments: { city: "Zürich" } },
      { type: "toolCall", id: "b", name: "get_weather", arguments: {} },
    ],
    stopReason: "toolUse",
    timestamp: t,
  },
  { role: "toolResult", toolCallId: "a", toolName: "get_weather", content: [image], isError: false, timestamp: t },
  { role: "toolResult", toolCallId: "b", toolName: "get_weather", content: [{ type: "text", text: "boom" }], isError: true, timestamp: t },
  { role: "assistant", content: [{ type: "text", text: "" }], stopReason: "aborted", timestamp: t },
  { role: "user", content: "", timestamp: t },
  { role: "user", content: "and now?", timestamp: t },
];

// Short chat lines: most are written as their own text between a fixed prefix and suffix.
const chatLines: ModelMessage[] = [
  { role: "user", content: "hello there, 1 + 1 = 2? (yes) [a] {b} <c> ~`", timestamp: t },
  { role: "assistant", content: [{ type: "text", text: "Hi! How can I help?" }], timestamp: t },
  { role: "user", content: 'say "quoted" and back\\slash', timestamp: t },
  { role: "assistant", content: [{ type: "text", text: "line\nbreak\ttab" }], timestamp: t },
  { role: "user", content: "caf\u00e9 \u2028", timestamp: t },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hm" },
      { type: "text", text: "plain after thinking" },
    ],
    timestamp: t,
  },
  {
    role: "assistant",
    content: [
      { type: "text", text: "two" },
      { type: "text", text: " blocks" },
    ],
    timestamp: t,
  },
  { role: "user", content: "\u007f", timestamp: t },
];

const variants: [string, ModelRequest][] = [
  ["tools, images allowed", { model: model(), systemPrompt: "You are a test.\nUse “tools”.", messages: conversation, tools: [WEATHER_TOOL] }],
  ["text-only model, no system prompt, no tools", { model: model({ input: ["text"] }), systemPrompt: "", messages: conversation, tools: [] }],
  [
    "openai provider, temperature, request max tokens",
    { model: model({ provider: "openai" }), systemPrompt: "s", messages: conversation, tools: [WEATHER_TOOL], temperature: 0.2, maxTokens: 77 },
  ],
  ["images at the very end", { model: model(), systemPrompt: "s", messages: conversation.slice(0, 3), tools: [] }],
  ["plain and escaped chat lines", { model: model(), systemPrompt: "s", messages: chatLines, tools: [] }],
];

const openAIRequestJson = (request: ModelRequest) => openAIRequestBody(request).toString("latin1");

describe("openAIRequestBody", () => {
  it("gives the same body for projections (JSON memoized in them) as for plain messages, across image support changes", () => {
    const projected = new Map<ModelMessage, ModelMessage>();
    const projection = (m: ModelMessage) => projected.get(m) ?? projected.set(m, projectMessage(m)!).get(m)!;
    for (const [name, request] of [...variants, ...variants]) {
      const viaProjections = { ...request, messages: request.messages.map(projection) };
      expect(openAIRequestJson(viaProjections), name).toBe(openAIRequestJson(request));
    }
    expect(ModelProjection.memo(projection(conversation[6]!), {})).toBeUndefined();
  });

  it.each(variants)("is the JSON of toOpenAIParams(request), key order kept, in ASCII only: %s", (_name, request) => {
    const json = openAIRequestJson(request);
    expect(json).toMatch(/^[\x00-\x7f]*$/);
    expect(JSON.stringify(JSON.parse(json))).toBe(JSON.stringify(toOpenAIParams(request)));
  });

  it("escapes non-ASCII text, astral characters as surrogate pairs", () => {
    expect(asciiJson({ t: "Zürich — 😀" })).toBe('{"t":"Z\\u00fcrich \\u2014 \\ud83d\\ude00"}');
    expect(JSON.parse(asciiJson({ t: "Zürich — 😀" }))).toEqual({ t: "Zürich — 😀" });
  });

  it("gives the same bytes when the messages' JSON comes from the cache", () => {
    // (The first call filled the cache; a copy of the message list reuses every piece.)
    const request = variants[0]![1];
    const first = openAIRequestJson(request);
    expect(openAIRequestJson({ ...request, messages: [...request.messages] })).toBe(first);
    // The same message objects under a text-only model must not reuse the image-allowing JSON.
    const textOnly = { ...request, model: model({ input: ["text"] }) };
    expect(JSON.parse(openAIRequestJson(textOnly))).toEqual(toOpenAIParams(textOnly));
    expect(openAIRequestJson(textOnly)).not.toBe(first);
  });

  it("reuses the previous request's bytes for the messages it shares, and only those", () => {
    const oracle = (request: ModelRequest) => expect(JSON.parse(openAIRequestJson(request))).toEqual(toOpenAIParams(request));
    const history: ModelMessage[] = [...chatLines];
    const request = (messages: ModelMessage[], systemPrompt = "s", m = model()): ModelRequest => ({ model: m, systemPrompt, messages, tools: [] });
    // A conversation growing turn by turn, with a tool round and an empty message along the way.
    for (let turn = 0; turn < 4; turn += 1) {
      oracle(request(history));
      history.push({ role: "user", content: `turn ${turn}`, timestamp: t }, conversation[1]!, conversation[3]!, conversation[4]!);
    }
    oracle(request(history));
    // A message replaced in the middle (a compacted tool result): everything from it on is written again.
    const replaced = [...history];
    replaced[9] = { role: "user", content: "replaced", timestamp: t };
    oracle(request(replaced));
    oracle(request(history));
    // Without the system message the first message has no comma before it; with images refused, other JSON.
    oracle(request(history, ""));
    oracle(request(history));
    oracle(request(history, "s", model({ input: ["text"] })));
    // Tool images (sent after the run of tool results) are never taken from a previous request.
    oracle(request([...history, ...conversation.slice(0, 4)]));
    oracle(request([...history, ...conversation.slice(0, 4), conversation[6]!]));
    // Only empty messages after the system prompt: no dangling comma.
    const empty = conversation[4]!;
    oracle(request([empty]));
    oracle(request([empty, empty]));
  });

  it("builds bodies larger than its scratch space, and small ones again after a huge one", () => {
    const big = (chars: number): ModelRequest => ({ model: model(), systemPrompt: "s", messages: [{ role: "user", content: "é".repeat(chars), timestamp: t }], tools: [] });
    for (const request of [big(100_000), big(1_500_000), variants[0]![1], big(10)]) {
      expect(JSON.parse(openAIRequestJson(request))).toEqual(toOpenAIParams(request));
    }
  });
});
