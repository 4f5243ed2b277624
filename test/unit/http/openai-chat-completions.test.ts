import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { postJson, sseData, startOpenAiServer, TOKEN, userMessage, waitFor, type TestServer } from "./openai-test-server.js";

let server: TestServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startOpenAiServer();
  client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: TOKEN, maxRetries: 0 });
});
afterAll(() => server.close());

describe("POST /v1/chat/completions with the openai SDK", () => {
  it("returns a chat.completion", async () => {
    const completion = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "hello" }] });
    expect(completion.object).toBe("chat.completion");
    expect(completion.id).toMatch(/^chatcmpl_[0-9a-f-]{36}$/);
    expect(completion.model).toBe("openclaw");
    expect(Math.abs(completion.created - Date.now() / 1000)).toBeLessThan(5);
    expect(completion.choices).toEqual([{ index: 0, message: { role: "assistant", content: "echo: hello" }, finish_reason: "stop" }]);
    expect(completion.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(server.turns.last.agentId).toBe("main");
  });

  it("streams role, deltas, finish_reason and usage, in that order", async () => {
    const stream = await client.chat.completions.create({
      model: "openclaw/ops",
      messages: [{ role: "user", content: "stream:Hel|lo| world" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: "assistant" });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Hello world");
    expect(chunks.slice(1, 4).map((c) => c.choices[0]!.delta.content)).toEqual(["Hel", "lo", " world"]);
    const finish = chunks[4]!;
    expect(finish.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    const usage = chunks[5]!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(chunks).toHaveLength(6);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "openclaw/ops")).toBe(true);
    expect(server.turns.last.agentId).toBe("ops");
  });

  it("surfaces a failed turn as APIError with status 502 and the safe message", async () => {
    const err = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "user", content: "fail:server:provider answered 503" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toContain("provider answered 503");
  });
});

describe("POST /v1/chat/completions over plain HTTP", () => {
  it("streams exact SSE: headers, chunk order, no usage unless asked, [DONE] last", async () => {
    const res = await postJson(server.base, "/v1/chat/completions", { ...userMessage("stream:a|b"), stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const events = sseData(await res.text());
    expect(events[events.length - 1]).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as { choices: Record<string, unknown>[] });
    expect(chunks.map((c) => c.choices[0])).toEqual([
      { index: 0, delta: { role: "assistant" } },
      { index: 0, delta: { content: "a" }, finish_reason: null },
      { index: 0, delta: { content: "b" }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: "stop" },
    ]);
  });

  it("a turn that streamed nothing still sends its text (or upstream's placeholder)", async () => {
    const res = await postJson(server.base, "/v1/chat/completions", { ...userMessage("silent"), stream: true });
    const events = sseData(await res.text());
    expect(JSON.parse(events[1]!).choices[0].delta.content).toBe("No response from OpenClaw.");
    const plain = await postJson(server.base, "/v1/chat/completions", userMessage("silent"));
    expect(((await plain.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("No response from OpenClaw.");
  });

  it("a turn failing mid-stream ends with an Error content chunk, finish_reason stop, then [DONE]", async () => {
    const res = await postJson(server.base, "/v1/chat/completions", { ...userMessage("fail:network:connection reset"), stream: true });
    expect(res.status).toBe(200);
    const events = sseData(await res.text());
    expect(events[events.length - 1]).toBe("[DONE]");
    const last = JSON.parse(events[events.length - 2]!);
    expect(last.choices[0]).toEqual({ index: 0, delta: { content: "Error: connection reset" }, finish_reason: "stop" });
    expect(JSON.parse(events[1]!).choices[0].delta.content).toBe("partial ");
  });

  it("maps failed turns to 500/502 with OpenAI error bodies, never leaking stacks or secrets", async () => {
    const upstream = await postJson(server.base, "/v1/chat/completions", userMessage("fail:rate_limit:429 from provider, key sk-abcdefghijklmnop"));
    expect(upstream.status).toBe(502);
    expect(await upstream.json()).toEqual({ error: { message: "429 from provider, key [redacted]", type: "api_error", code: "rate_limit" } });

    const own = await postJson(server.base, "/v1/chat/completions", userMessage(`fail:loop:stuck calling read with ${TOKEN}`));
    expect(own.status).toBe(500);
    const ownBody = await own.text();
    expect(ownBody).not.toContain(TOKEN);
    expect(JSON.parse(ownBody).error.type).toBe("api_error");

    const thrown = await postJson(server.base, "/v1/chat/completions", userMessage("throw"));
    expect(thrown.status).toBe(500);
    const thrownBody = await thrown.text();
    expect(JSON.parse(thrownBody)).toEqual({ error: { message: "internal error", type: "api_error" } });

    const thrownStream = await postJson(server.base, "/v1/chat/completions", { ...userMessage("throw"), stream: true });
    const streamText = await thrownStream.text();
    expect(streamText).toContain('"content":"Error: internal error"');
    for (const text of [thrownBody, streamText]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain("secretFunction");
    }
  });

  it("tells the turn when a streaming client disconnects", async () => {
    const controller = new AbortController();
    const hanging = await fetch(`${server.base}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ ...userMessage("hang"), stream: true, user: "abort-me" }),
      signal: controller.signal,
    });
    const reader = hanging.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"role":"assistant"');
    controller.abort();
    await waitFor(() => server.turns.aborted.includes("agent:main:openai-user:abort-me"));
  });

  it("tells the turn when a non-streaming client disconnects", async () => {
    const controller = new AbortController();
    const pending = fetch(`${server.base}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ ...userMessage("hang"), user: "abort-plain" }),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await waitFor(() => server.turns.inputs.some((i) => i.sessionKey === "agent:main:openai-user:abort-plain"));
    controller.abort();
    await pending;
    await waitFor(() => server.turns.aborted.includes("agent:main:openai-user:abort-plain"));
  });

  it("does not abort turns that completed normally", async () => {
    await postJson(server.base, "/v1/chat/completions", { ...userMessage("stream:x|y"), stream: true, user: "complete-s" }).then((r) => r.text());
    await postJson(server.base, "/v1/chat/completions", { ...userMessage("hi"), user: "complete-p" }).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    expect(server.turns.aborted).not.toContain("agent:main:openai-user:complete-s");
    expect(server.turns.aborted).not.toContain("agent:main:openai-user:complete-p");
  });
});
