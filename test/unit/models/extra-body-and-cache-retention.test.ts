import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../../src/agents/types.js";
import { toAnthropicParams } from "../../../src/models/anthropic-messages.js";
import { wireSettings } from "../../../src/models/model-settings.js";
import { openAIRequestBody } from "../../../src/models/openai-request-json.js";
import type { ProviderModel } from "../../../src/models/types.js";
import { WEATHER_TOOL } from "./stream-helpers.js";

const t = 1_700_000_000_000;
const model = (api: ProviderModel["api"]): ProviderModel =>
  ({
    ref: "p/m",
    provider: "p",
    id: "m-1",
    api,
    baseUrl: "http://127.0.0.1:1/v1",
    apiKey: "k",
    input: ["text"],
    contextWindow: 128_000,
    maxTokens: 4096,
    reasoning: false,
  }) as ProviderModel;
const request = (api: ProviderModel["api"], params: Record<string, unknown>): ModelRequest => ({
  model: model(api),
  systemPrompt: "sys",
  messages: [{ role: "user", content: "hi", timestamp: t }],
  tools: [WEATHER_TOOL],
  params,
});
const body = (params: Record<string, unknown>) => JSON.parse(openAIRequestBody(request("openai-completions", params)).toString("latin1"));

describe("params.extra_body and chat_template_kwargs (Chat Completions)", () => {
  it("extra_body's fields go into the body and win over generated ones, which are then not written twice", () => {
    const text = openAIRequestBody(request("openai-completions", { temperature: 0.1, extra_body: { tool_choice: "required", temperature: 0.7, max_tokens: 99 } })).toString(
      "latin1",
    );
    expect(text.match(/"temperature"/g)).toHaveLength(1);
    expect(text.match(/"max_tokens"/g)).toHaveLength(1);
    expect(JSON.parse(text)).toMatchObject({ tool_choice: "required", temperature: 0.7, max_tokens: 99 });
    expect(body({ extraBody: { reasoning_budget: 16384 } }).reasoning_budget).toBe(16384);
  });

  it("the gateway's own structure stays: model, messages, stream and tools are not replaced, and that is named", () => {
    const sent = body({ extra_body: { model: "other", messages: [], top_k: 20 } });
    expect(sent.model).toBe("m-1");
    expect(sent.messages).toHaveLength(2);
    expect(sent.top_k).toBe(20);
    const { dropped } = wireSettings({ model: model("openai-completions"), params: { extra_body: { model: "x" } } });
    expect(dropped).toEqual(["params.extra_body.model (the gateway writes model itself)"]);
  });

  it("chat_template_kwargs is a top-level field; other APIs do not get either", () => {
    expect(body({ chat_template_kwargs: { enable_thinking: false } }).chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(wireSettings({ model: model("anthropic-messages"), params: { extra_body: { a: 1 }, chat_template_kwargs: {} } }).dropped).toEqual([
      "params.extra_body (not sent to anthropic-messages: it is for OpenAI-compatible Chat Completions servers)",
      "params.chat_template_kwargs (not sent to anthropic-messages)",
    ]);
    expect(wireSettings({ model: model("openai-completions"), params: { extra_body: [1] } }).dropped).toEqual(["params.extra_body (not a JSON object)"]);
  });
});

describe("params.cacheRetention (Anthropic)", () => {
  const breakpoints = (params: Record<string, unknown>) => {
    const wire = toAnthropicParams(request("anthropic-messages", params));
    const system = (wire.system as { cache_control?: unknown }[])[0]!.cache_control;
    const last = ((wire.messages.at(-1)!.content as { cache_control?: unknown }[]).at(-1) as { cache_control?: unknown }).cache_control;
    return [system, last];
  };

  it("short (the default) marks the 5-minute cache, long the 1-hour one, none no breakpoint at all", () => {
    expect(breakpoints({})).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }]);
    expect(breakpoints({ cacheRetention: "short" })).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }]);
    expect(breakpoints({ cacheRetention: "long" })).toEqual([
      { type: "ephemeral", ttl: "1h" },
      { type: "ephemeral", ttl: "1h" },
    ]);
    expect(breakpoints({ cacheRetention: "none" })).toEqual([undefined, undefined]);
  });

  it("an unknown value, and the setting on other APIs, are named as not sent", () => {
    expect(wireSettings({ model: model("anthropic-messages"), params: { cacheRetention: "standard" } }).dropped).toEqual([
      'params.cacheRetention "standard" (use none, short or long)',
    ]);
    expect(breakpoints({ cacheRetention: "standard" })).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }]);
    expect(wireSettings({ model: model("openai-responses"), params: { cacheRetention: "long" } }).dropped).toEqual([
      "params.cacheRetention (openai-responses caches prompts by itself; the setting is for Anthropic)",
    ]);
  });
});
