import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelStreamEvent } from "../../../src/agents/types.js";
import { CONTEXT_OVERFLOW_ERRORS, startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run, TEST_KEY, terminalCount, WEATHER_TOOL } from "./stream-helpers.js";
import { PROVIDER_STREAMS } from "./provider-streams.js";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function expectError(events: ModelStreamEvent[], kind: string, retryable: boolean) {
  expect(terminalCount(events)).toBe(1);
  const end = last(events);
  expect(end.type).toBe("error");
  if (end.type !== "error") throw new Error("unreachable");
  expect({ kind: end.kind, retryable: end.retryable }).toEqual({ kind, retryable });
  expect(end.message.stopReason).toBe(kind === "aborted" ? "aborted" : "error");
  expect(end.message.errorMessage).toBe(end.error);
  return end;
}

describe.each(PROVIDER_STREAMS)("$api: failures become one final error event", ({ api, stream }) => {
  it("aborts mid-stream quickly, keeping the partial message", async () => {
    server.enqueue({ text: "a reply long enough to abort half way through", chunkDelayMs: 250 });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    let abortedAt = 0;
    for await (const event of stream(makeRequest(fakeModel(server, api)), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta" && !abortedAt) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    // The rest of the reply would take another second (≥ 4 chunks 250 ms apart): ending
    // well before that proves the HTTP request itself was cut, not drained.
    expect(Date.now() - abortedAt).toBeLessThan(500);
    const end = expectError(events, "aborted", false);
    const partial = end.message.content[0];
    expect(partial?.type === "text" && partial.text.length).toBeLessThan("a reply long enough to abort half way through".length);
  });

  it("reports an already-aborted signal without calling out", async () => {
    const controller = new AbortController();
    controller.abort();
    expectError(await run(stream, makeRequest(fakeModel(server, api)), controller.signal), "aborted", false);
  });

  it("without a key: refuses to call out (the SDK would otherwise hunt for one); Ollama sends no Authorization", async () => {
    const events = await run(stream, makeRequest(fakeModel(server, api, { apiKey: undefined })));
    if (api === "ollama") {
      expect(last(events).type).toBe("done");
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
      return;
    }
    expectError(events, "config", false);
    expect(server.requests).toHaveLength(0);
  });

  it("maps HTTP 500 to a retryable server error", async () => {
    server.enqueue({ status: 500 });
    const end = expectError(await run(stream, makeRequest(fakeModel(server, api))), "server", true);
    expect(end.error).toContain("500");
    // sdkMaxRetries is 0 (failover has alternatives): the SDK sent exactly one request.
    expect(server.requests).toHaveLength(1);
  });

  it("lets the SDK retry a 500 when this is the last option (sdkMaxRetries unset); Ollama's request is sent once", async () => {
    server.enqueue({ status: 500, headers: { "retry-after-ms": "10" } });
    const events = await run(stream, makeRequest(fakeModel(server, api, { sdkMaxRetries: undefined })));
    if (api === "ollama") {
      expectError(events, "server", true);
      expect(server.requests).toHaveLength(1);
      return;
    }
    expect(last(events).type).toBe("done");
    expect(server.requests).toHaveLength(2);
  });

  it("makes the SDK give up at once on a 429 asking to wait over 60 s, and reports the wait", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "120" } });
    const end = expectError(await run(stream, makeRequest(fakeModel(server, api, { sdkMaxRetries: undefined }))), "rate_limit", true);
    expect(end.status).toBe(429);
    expect(end.retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it("maps HTTP 401 to auth and never repeats the key", async () => {
    server.enqueue({ status: 401, body: { type: "error", error: { type: "authentication_error", message: `invalid key ${TEST_KEY}` } } });
    const end = expectError(await run(stream, makeRequest(fakeModel(server, api))), "auth", false);
    expect(end.error).toContain("401");
    expect(JSON.stringify(end)).not.toContain(TEST_KEY);
  });

  it("maps HTTP 429 to a retryable rate limit", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "1" } });
    expectError(await run(stream, makeRequest(fakeModel(server, api))), "rate_limit", true);
    expect(server.requests).toHaveLength(1);
  });

  it("maps a 400 about the context window to context_length", async () => {
    const message = "prompt is too long: 210000 tokens > 200000 maximum";
    server.enqueue({ status: 400, body: { type: "error", error: { type: "invalid_request_error", message } } });
    expectError(await run(stream, makeRequest(fakeModel(server, api))), "context_length", false);
  });

  // Every family on every wire: bodies without OpenAI's `error` envelope (Bedrock, Mistral) are
  // wrapped by the gateway's fetch, so the OpenAI SDK keeps their text too.
  const families = Object.keys(CONTEXT_OVERFLOW_ERRORS);
  it.each(families)("maps the %s family's context-overflow error to context_length", async (family) => {
    server.enqueue(CONTEXT_OVERFLOW_ERRORS[family as keyof typeof CONTEXT_OVERFLOW_ERRORS]);
    expectError(await run(stream, makeRequest(fakeModel(server, api))), "context_length", false);
  });

  it("maps any other 400 to bad_request: the provider refused this request", async () => {
    server.enqueue({ status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "temperature: must be at most 2" } } });
    expectError(await run(stream, makeRequest(fakeModel(server, api))), "bad_request", false);
  });

  it("turns a garbage stream into malformed without throwing", async () => {
    server.enqueue({ malformed: "garbage" });
    expectError(await run(stream, makeRequest(fakeModel(server, api))), "malformed", false);
  });

  it("turns a truncated stream into malformed, keeping what arrived", async () => {
    server.enqueue({ malformed: "truncated" });
    const end = expectError(await run(stream, makeRequest(fakeModel(server, api))), "malformed", true);
    expect(end.message.content).toEqual([{ type: "text", text: "This reply never finishes" }]);
  });

  it("passes a call whose arguments are not valid JSON on with the problem, never guessed arguments", async () => {
    server.enqueue({ toolCalls: [{ id: "call_bad", name: "get_weather", arguments: '{"city": "Par' }] });
    const events = await run(stream, makeRequest(fakeModel(server, api), undefined, [WEATHER_TOOL]));
    expect(last(events)).toMatchObject({ type: "done", stopReason: "toolUse" });
    const call = events.find((e) => e.type === "toolcall");
    expect(call?.type === "toolcall" && call.call).toMatchObject({ id: "call_bad", name: "get_weather", arguments: {} });
    expect(call?.type === "toolcall" && call.call.argumentsError).toMatch(/^arguments are not valid JSON/);
  });

  it("applies timeoutSeconds to the request", async () => {
    server.enqueue({ text: "too late", delayMs: 3000 });
    const started = Date.now();
    expectError(await run(stream, makeRequest(fakeModel(server, api, { timeoutSeconds: 0.2 }))), "timeout", true);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("maps a refused connection to a retryable network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const baseUrl = api === "openai-completions" ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
    expectError(await run(stream, makeRequest(fakeModel(server, api, { baseUrl }))), "network", true);
  });
});
