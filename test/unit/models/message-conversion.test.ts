import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/agents/types.js";
import { createStreamModel } from "../../../src/models/index.js";
import { toAnthropicMessages } from "../../../src/models/anthropic-messages.js";
import type { ProviderModel } from "../../../src/models/types.js";
import { openAIRequestBody } from "../../../src/models/openai-request-json.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run, WEATHER_TOOL } from "./stream-helpers.js";

/** The `messages` of the body the OpenAI provider sends (no system prompt, no tools). */
function toOpenAIMessages(systemPrompt: string, messages: ModelMessage[], imagesAllowed: boolean) {
  const model = { ...fakeModel(server, "openai-completions"), input: imagesAllowed ? ["text", "image"] : ["text"] } as ProviderModel;
  return JSON.parse(openAIRequestBody({ model, systemPrompt, messages, tools: [] }).toString("latin1")).messages as Record<string, unknown>[];
}

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const t = 1_700_000_000_000;
const HISTORY: ModelMessage[] = [
  { role: "user", content: "What's the weather in Paris?", timestamp: t },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Use the tool.", signature: "sig-1" },
      { type: "text", text: "Let me check." },
      { type: "toolCall", id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
    ],
    stopReason: "toolUse",
    timestamp: t,
  },
  { role: "toolResult", toolCallId: "call_1", toolName: "get_weather", content: [{ type: "text", text: "18C sunny" }], isError: false, details: { raw: 18 }, timestamp: t },
  { role: "user", content: "Thanks! And Rome?", timestamp: t },
];

describe("a user → toolCall → toolResult → user history is accepted by both wire formats", () => {
  it("anthropic-messages", async () => {
    const events = await run(createStreamModel(), makeRequest(fakeModel(server, "anthropic-messages"), HISTORY, [WEATHER_TOOL]));
    expect(last(events).type).toBe("done");
    expect(server.requests[0]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What's the weather in Paris?" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Use the tool.", signature: "sig-1" },
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_1", content: [{ type: "text", text: "18C sunny" }] },
          { type: "text", text: "Thanks! And Rome?", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  it("openai-completions", async () => {
    const events = await run(createStreamModel(), makeRequest(fakeModel(server, "openai-completions"), HISTORY, [WEATHER_TOOL]));
    expect(last(events).type).toBe("done");
    expect(server.requests[0]!.body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "What's the weather in Paris?" },
      {
        role: "assistant",
        content: "Let me check.",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "18C sunny" },
      { role: "user", content: "Thanks! And Rome?" },
    ]);
  });
});

describe("conversion details", () => {
  const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };
  const parallel: ModelMessage[] = [
    { role: "user", content: [{ type: "text", text: "Look:" }, image], timestamp: t },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "unsigned, from another provider" },
        { type: "toolCall", id: "a", name: "shot", arguments: {} },
        { type: "toolCall", id: "b", name: "get_weather", arguments: { city: "Oslo" } },
      ],
      timestamp: t,
    },
    { role: "toolResult", toolCallId: "a", toolName: "shot", content: [image], isError: false, timestamp: t },
    { role: "toolResult", toolCallId: "b", toolName: "get_weather", content: [{ type: "text", text: "boom" }], isError: true, timestamp: t },
  ];

  it("anthropic: answers parallel calls in one user message, flags errors, sends images as base64", () => {
    const wire = toAnthropicMessages(parallel, true, { type: "ephemeral" });
    expect(wire).toHaveLength(3);
    expect(wire[0]!.content).toEqual([
      { type: "text", text: "Look:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "aGVsbG8=" } },
    ]);
    // An unsigned thinking block cannot be replayed to Anthropic.
    expect((wire[1]!.content as { type: string }[]).map((b) => b.type)).toEqual(["tool_use", "tool_use"]);
    expect(wire[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "aGVsbG8=" } }] },
        { type: "tool_result", tool_use_id: "b", content: [{ type: "text", text: "boom" }], is_error: true, cache_control: { type: "ephemeral" } },
      ],
    });
  });

  it("openai: keeps tool messages together and sends tool images in a following user message", () => {
    const wire = toOpenAIMessages("", parallel, true);
    expect(wire.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(wire[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Look:" },
        { type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } },
      ],
    });
    expect(wire[1]).toMatchObject({ content: null, tool_calls: [{ id: "a" }, { id: "b" }] });
    expect(wire[2]).toEqual({ role: "tool", tool_call_id: "a", content: "[1 image(s) attached in the next message]" });
    expect(wire[4]).toMatchObject({ role: "user", content: [{ type: "text" }, { type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } }] });
  });

  it("replaces images with a note for text-only models", () => {
    expect(toAnthropicMessages([parallel[0]!], false, { type: "ephemeral" })[0]!.content).toEqual([
      { type: "text", text: "Look:" },
      { type: "text", text: "[image omitted: image/png is not supported by this model]", cache_control: { type: "ephemeral" } },
    ]);
    expect(toOpenAIMessages("", [parallel[0]!], false)).toEqual([{ role: "user", content: "Look:\n[image omitted: image/png]" }]);
  });

  it("skips empty messages that the APIs would reject", () => {
    const empty: ModelMessage[] = [
      { role: "user", content: "", timestamp: t },
      { role: "assistant", content: [{ type: "text", text: "" }], stopReason: "aborted", timestamp: t },
      { role: "user", content: "hi", timestamp: t },
    ];
    expect(toAnthropicMessages(empty, true, { type: "ephemeral" })).toEqual([{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }]);
    expect(toOpenAIMessages("", empty, true)).toEqual([{ role: "user", content: "hi" }]);
  });
});
