import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { postJson, startOpenAiServer, TOKEN, userMessage, type TestServer } from "./openai-test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());

async function expectError(res: Response, status: number, message: RegExp, param?: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = (await res.json()) as { error: { message: string; type: string; param?: string } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.type).toBe("invalid_request_error");
  expect(body.error.message).toMatch(message);
  if (param) expect(body.error.param).toBe(param);
  // No code means nothing here; fastify's own (FST_ERR_VALIDATION) must not leak through.
  expect(body.error).not.toHaveProperty("code");
}

describe("request validation", () => {
  it.each<[string, unknown, RegExp, string?]>([
    ["not an object", [1, 2], /JSON object/],
    ["a JSON string", '"hello"', /JSON object/],
    ["missing messages", { model: "openclaw" }, /non-empty array/, "messages"],
    ["empty messages", { messages: [] }, /non-empty array/, "messages"],
    ["messages not an array", { messages: "hi" }, /non-empty array/, "messages"],
    ["message not an object", { messages: ["hi"] }, /must be an object/, "messages[0]"],
    ["unknown role", { messages: [{ role: "robot", content: "x" }] }, /role must be one of/, "messages[0].role"],
    ["content a number", { messages: [{ role: "user", content: 5 }] }, /string or an array/, "messages[0].content"],
    ["user content null", { messages: [{ role: "user", content: null }] }, /string or an array/],
    ["part without type", { messages: [{ role: "user", content: [{ text: "x" }] }] }, /string 'type'/],
    ["text part without text", { messages: [{ role: "user", content: [{ type: "text" }] }] }, /text must be a string/],
    ["unknown part type", { messages: [{ role: "user", content: [{ type: "hologram" }] }] }, /not a supported content part/],
    [
      "audio in the last message",
      { messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] }] },
      /'input_audio' are not supported: only text, image_url and file parts/,
    ],
    [
      "last message not user",
      {
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "a" },
        ],
      },
      /must have role 'user'/,
      "messages",
    ],
    ["empty user text", { messages: [{ role: "user", content: "   " }] }, /Missing user message/],
    ["stream not boolean", { ...userMessage("x"), stream: "yes" }, /`stream` must be a boolean/, "stream"],
    ["stream as the string 'true' (no type coercion)", { ...userMessage("x"), stream: "true" }, /`stream` must be a boolean/, "stream"],
    ["temperature as a numeric string", { ...userMessage("x"), temperature: "0.5" }, /between 0 and 2/, "temperature"],
    [
      "a bad part after a good one",
      { messages: [{ role: "user", content: [{ type: "text", text: "a" }, 5] }] },
      /messages\[0\]\.content\[1\] must be an object/,
      "messages[0].content[1]",
    ],
    [
      "a bad second message",
      {
        messages: [
          { role: "user", content: "a" },
          { role: "user", content: 7 },
        ],
      },
      /messages\[1\]\.content must be a string/,
      "messages[1].content",
    ],
    ["stream_options not object", { ...userMessage("x"), stream: true, stream_options: 1 }, /must be an object/, "stream_options"],
    ["include_usage not boolean", { ...userMessage("x"), stream: true, stream_options: { include_usage: "y" } }, /boolean/, "stream_options.include_usage"],
    ["model not a string", { ...userMessage("x"), model: 4 }, /`model` must be a string/, "model"],
    ["user not a string", { ...userMessage("x"), user: { id: 1 } }, /`user` must be a string/, "user"],
    ["temperature out of range", { ...userMessage("x"), temperature: 3 }, /between 0 and 2/, "temperature"],
    ["top_p out of range", { ...userMessage("x"), top_p: -0.1 }, /between 0 and 1/, "top_p"],
    ["max_tokens zero", { ...userMessage("x"), max_tokens: 0 }, /integer of at least 1/, "max_tokens"],
    ["seed not an integer", { ...userMessage("x"), seed: 1.5 }, /integer/, "seed"],
    ["too many stop strings", { ...userMessage("x"), stop: ["a", "b", "c", "d", "e"] }, /at most 4/, "stop"],
    ["n > 1", { ...userMessage("x"), n: 2 }, /n: 1/, "n"],
    ["tool_choice required without tools", { ...userMessage("x"), tool_choice: "required" }, /requires a tool call, but `tools` lists none/, "tool_choice"],
    [
      "tool_choice naming no listed tool",
      { ...userMessage("x"), tools: [{ type: "function", function: { name: "a" } }], tool_choice: { type: "function", function: { name: "b" } } },
      /names 'b', which is not in `tools`/,
      "tool_choice",
    ],
    [
      "tool_choice allowed_tools",
      { ...userMessage("x"), tools: [{ type: "function", function: { name: "a" } }], tool_choice: { type: "allowed_tools" } },
      /must be 'auto', 'none', 'required'/,
      "tool_choice",
    ],
    ["a custom tool", { ...userMessage("x"), tools: [{ type: "custom", custom: { name: "a" } }] }, /only function tools/, "tools[0].type"],
    ["a tool without a name", { ...userMessage("x"), tools: [{ type: "function", function: { description: "d" } }] }, /name must be 1-64 letters/, "tools[0].function.name"],
    ["tools not an array", { ...userMessage("x"), tools: { type: "function" } }, /`tools` must be an array/, "tools"],
  ])("%s → 400", async (_name, body, message, param) => {
    await expectError(await postJson(server.base, "/v1/chat/completions", body), 400, message, param);
  });

  it("malformed or empty JSON → 400 in OpenAI shape (fastify's error is mapped)", async () => {
    await expectError(await postJson(server.base, "/v1/chat/completions", '{"messages": ['), 400, /not valid JSON/);
    await expectError(await postJson(server.base, "/v1/chat/completions", ""), 400, /empty/);
    await expectError(await postJson(server.base, "/v1/chat/completions", '{"__proto__": {"x": 1}}'), 400, /not valid JSON/);
  });

  it("the mapping stays inside the plugin: a neighbour route keeps fastify's default error", async () => {
    const res = await fetch(`${server.base}/neighbour`, { method: "POST", headers: { "content-type": "application/json" }, body: "{bad" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect(res.headers.get("x-content-type-options")).toBeNull();
  });

  it("non-JSON content types → 415", async () => {
    const body = JSON.stringify(userMessage("x"));
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      await expectError(await postJson(server.base, "/v1/chat/completions", body, { "content-type": type }), 415, /application\/json/);
    }
    const none = await fetch(`${server.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    await expectError(none, 415, /application\/json/);
    const charset = await postJson(server.base, "/v1/chat/completions", body, { "content-type": "application/json; charset=utf-8" });
    expect(charset.status).toBe(200);
  });

  it("accepts bodies above the app's 1 MiB default, refuses ones above the route limit with 413", async () => {
    const big = userMessage("x".repeat(2 * 1024 * 1024));
    expect((await postJson(server.base, "/v1/chat/completions", big)).status).toBe(200);
    const huge = userMessage("x".repeat(21 * 1024 * 1024));
    await expectError(await postJson(server.base, "/v1/chat/completions", huge), 413, /^Payload too large$/);
  });

  it("the SDK sees validation failures as BadRequestError", async () => {
    const client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: TOKEN, maxRetries: 0 });
    const err = await client.chat.completions.create({ model: "openclaw", messages: [{ role: "assistant", content: "no user" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  });
});
