import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseLines } from "../../../src/models/openai-chat-stream.js";
import { createOpenAICompletionsStream } from "../../../src/models/openai-completions-provider.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { fakeModel, last, makeRequest, run } from "./stream-helpers.js";

describe("SseLines", () => {
  it("completes an event only at its blank line, across pieces and every line ending", () => {
    const sse = new SseLines();
    expect(sse.push('data: {"a":')).toEqual([]);
    expect(sse.push("1}\r")).toEqual([]);
    // The \n after a piece-final \r belongs to the same line end, not a blank line.
    expect(sse.push("\n")).toEqual([]);
    expect(sse.push("\r\n")).toEqual([{ event: null, data: '{"a":1}' }]);
    expect(sse.push("event: x\rdata: one\rdata:two\r\r\n")).toEqual([{ event: "x", data: "one\ntwo" }]);
  });

  it("skips comments, unknown fields and empty events", () => {
    const sse = new SseLines();
    expect(sse.push(": keep-alive\n\nid: 7\nretry: 10\n\n\n")).toEqual([]);
    expect(sse.push("data\n\n")).toEqual([{ event: null, data: "" }]);
  });
});

describe("openai-completions over node:http", () => {
  let fake: FakeModelServer;
  let raw: Server;
  let rawUrl = "";
  let seen: IncomingHttpHeaders | undefined;
  let rawBody = "";

  beforeAll(async () => {
    fake = await startFakeModelServer();
    raw = createServer((req, res) => {
      seen = req.headers;
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(rawBody);
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    fake.close();
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  });

  it("sends the key and the provider's own headers, which win over the defaults", async () => {
    rawBody = 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const model = fakeModel(fake, "openai-completions", { baseUrl: rawUrl, headers: { "X-Team": "blue", "User-Agent": "custom-agent" } });
    const events = await run(createOpenAICompletionsStream(), makeRequest(model));
    expect(last(events)).toMatchObject({ type: "done" });
    expect(seen?.authorization).toBe(`Bearer ${model.apiKey}`);
    expect(seen?.["x-team"]).toBe("blue");
    expect(seen?.["user-agent"]).toBe("custom-agent");
    expect(seen?.["content-type"]).toBe("application/json");
  });

  it("turns an error event inside a 200 stream into the provider's error", async () => {
    rawBody = 'data: {"error":{"type":"rate_limit_exceeded","message":"slow down"}}\n\n';
    const end = last(await run(createOpenAICompletionsStream(), makeRequest(fakeModel(fake, "openai-completions", { baseUrl: rawUrl }))));
    expect(end).toMatchObject({ type: "error", kind: "rate_limit", retryable: true });
  });

  it("reads text after [DONE] as nothing, like the SDK", async () => {
    rawBody =
      'data: {"choices":[{"index":0,"delta":{"content":"kept"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\ndata: {"choices":[{"index":0,"delta":{"content":"dropped"}}]}\n\n';
    const end = last(await run(createOpenAICompletionsStream(), makeRequest(fakeModel(fake, "openai-completions", { baseUrl: rawUrl }))));
    expect(end.type === "done" && end.message.content).toEqual([{ type: "text", text: "kept" }]);
  });
});
