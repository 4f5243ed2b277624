import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../../fakes/model-server.js";
import { rawJsonPost, sendFromKilledClient } from "../../helpers/killed-client.js";

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer({ models: ["fake-model", "fake-large"] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const anthropic = () => new Anthropic({ apiKey: "k-anthropic", baseURL: server.url, maxRetries: 0, logLevel: "off" });
const openai = () => new OpenAI({ apiKey: "k-openai", baseURL: `${server.url}/v1`, maxRetries: 0, logLevel: "off" });

function lastUserText(request: RecordedRequest): string {
  const messages = request.body?.messages ?? [];
  const user = [...messages].reverse().find((m: { role: string }) => m.role === "user");
  if (typeof user?.content === "string") return user.content;
  return (user?.content ?? []).map((b: { text?: string }) => b.text ?? "").join("");
}

describe("fake model server", () => {
  it("answers non-streaming Messages and Chat Completions requests", async () => {
    server.enqueue({ text: "plain", toolCalls: [{ id: "t1", name: "f", arguments: { a: 1 } }] }, { text: "plain too" });
    const message = await anthropic().messages.create({ model: "fake-model", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    expect(message.content).toMatchObject([
      { type: "text", text: "plain" },
      { type: "tool_use", id: "t1", name: "f", input: { a: 1 } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    const completion = await openai().chat.completions.create({ model: "fake-model", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]!.message.content).toBe("plain too");
    expect(completion.choices[0]!.finish_reason).toBe("stop");
  });

  it("lists models", async () => {
    const ids: string[] = [];
    for await (const model of openai().models.list()) ids.push(model.id);
    expect(ids).toEqual(["fake-model", "fake-large"]);
  });

  it("replies with 'ok' by default and with the responder when one is set", async () => {
    const first = await openai().chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(first.choices[0]!.message.content).toBe("ok");
    server.setResponder((request) => ({ text: `echo: ${lastUserText(request)}` }));
    const echoed = await openai().chat.completions.create({ model: "m", messages: [{ role: "user", content: "ping" }] });
    expect(echoed.choices[0]!.message.content).toBe("echo: ping");
    // Queued replies still come first.
    server.enqueue({ text: "queued" });
    const queued = await anthropic().messages.create({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "y" }] });
    expect(queued.content).toMatchObject([{ type: "text", text: "queued" }]);
  });

  it("records path, headers and parsed body", async () => {
    await anthropic().messages.create({ model: "fake-model", max_tokens: 5, messages: [{ role: "user", content: "hello" }] });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/messages", body: { model: "fake-model", max_tokens: 5 } });
    expect(request!.headers.authorization).toBe("Bearer k-anthropic");
  });

  it("survives clients that abort mid-stream, and keeps serving", async () => {
    server.enqueue({ text: "slow slow slow", chunkDelayMs: 100 });
    const controller = new AbortController();
    const stream = await openai().chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] }, { signal: controller.signal });
    for await (const _chunk of stream) {
      controller.abort();
    }
    const after = await openai().chat.completions.create({ model: "m", messages: [{ role: "user", content: "again" }] });
    expect(after.choices[0]!.message.content).toBe("ok");
  });

  it("closes promptly even with a stream still open", async () => {
    const extra = await startFakeModelServer();
    extra.enqueue({ text: "never read to the end", chunkDelayMs: 5000 });
    const client = new OpenAI({ apiKey: "k", baseURL: `${extra.url}/v1`, maxRetries: 0, logLevel: "off" });
    const stream = await client.chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const started = Date.now();
    await extra.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(iterator.next()).rejects.toThrow();
  });

  it("dropConnections forgets a request a killed client sent just before, also one read after the reset", async () => {
    const fresh = await startFakeModelServer();
    const body = { model: "m", messages: [{ role: "user", content: "from a dead client" }] };
    await sendFromKilledClient(fresh.port, rawJsonPost("/v1/chat/completions", body), () => fresh.openConnections);
    expect(fresh.requests).toHaveLength(0);
    fresh.dropConnections();
    fresh.reset();
    const nextClient = new OpenAI({ apiKey: "k", baseURL: `${fresh.url}/v1`, maxRetries: 0, logLevel: "off" });
    await nextClient.chat.completions.create({ model: "m", messages: [{ role: "user", content: "from the next test" }] });
    expect(fresh.requests.map(lastUserText)).toEqual(["from the next test"]);
    await fresh.close();
  });
});
