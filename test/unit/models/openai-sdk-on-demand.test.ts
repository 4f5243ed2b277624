import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionsUrl, OPENAI_ERRORS_ONCE_LOADED, SDK_DEFAULT_TIMEOUT_MS } from "../../../src/models/openai-chat-stream.js";
import { createOpenAICompletionsStream } from "../../../src/models/openai-completions-provider.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run } from "./stream-helpers.js";

describe("the OpenAI SDK behind openai-completions", () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeModelServer();
  });
  afterAll(async () => {
    await fake.close();
  });

  // In this order: the module registry is this file's own, so the first test sees a fresh process.
  it("is not loaded for replies that arrive as a 2xx event stream", async () => {
    const stream = createOpenAICompletionsStream();
    for (let i = 0; i < 3; i += 1) expect(last(await run(stream, makeRequest(fakeModel(fake, "openai-completions"))))).toMatchObject({ type: "done" });
    expect(OPENAI_ERRORS_ONCE_LOADED.APIError.name).toBe("NotLoaded");
  });

  it("is loaded for the first answer that is not one, and its error classes then tell failures apart", async () => {
    fake.enqueue({ status: 500 });
    const end = last(await run(createOpenAICompletionsStream(), makeRequest(fakeModel(fake, "openai-completions"))));
    expect(end).toMatchObject({ type: "error", kind: "server", retryable: true });
    expect(OPENAI_ERRORS_ONCE_LOADED.APIError).toBe(OpenAI.APIError);
    expect(OPENAI_ERRORS_ONCE_LOADED.APIConnectionError).toBe(OpenAI.APIConnectionError);
  });

  it("is bypassed only where the request goes to the same URL, with the same default timeout, as the SDK would send it", () => {
    for (const base of ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/", "https://api.example.com/openai/v1", "http://[::1]:11434/v1"]) {
      const sdk = new OpenAI({ apiKey: "x", baseURL: base });
      expect(chatCompletionsUrl(base)?.toString()).toBe(sdk.buildURL("/chat/completions", undefined));
    }
    expect(SDK_DEFAULT_TIMEOUT_MS).toBe(OpenAI.DEFAULT_TIMEOUT);
    // Left to the SDK: its own default host (and OPENAI_BASE_URL), a query it rewrites, a URL it cannot parse.
    expect(chatCompletionsUrl(undefined)).toBeUndefined();
    expect(chatCompletionsUrl("https://example.azure.com/openai?api-version=1")).toBeUndefined();
    expect(chatCompletionsUrl("not a url")).toBeUndefined();
  });
});
