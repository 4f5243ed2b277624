import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { postJson, startOpenAiServer, TOKEN, type TestServer } from "./openai-test-server.js";

let server: TestServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startOpenAiServer({
    agents: [
      { id: "main", isDefault: false },
      { id: "home", isDefault: true },
      { id: "ops-bot", name: "Ops", isDefault: false },
    ],
  });
  client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: TOKEN, maxRetries: 0 });
});
afterAll(() => server.close());

const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  postJson(server.base, "/v1/chat/completions", { messages: [{ role: "user", content: "hi" }], ...body }, headers);

describe("model contract", () => {
  it.each([
    [undefined, "home"],
    ["openclaw", "home"],
    ["openclaw/default", "home"],
    ["OpenClaw/Default", "home"],
    ["openclaw/main", "main"],
    ["openclaw:ops-bot", "ops-bot"],
    ["agent:OPS-BOT", "ops-bot"],
    ["gpt-4o", "home"],
  ])("model %s → agent %s", async (model, agentId) => {
    const res = await send(model === undefined ? {} : { model });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { model: string };
    expect(body.model).toBe(model ?? "openclaw");
    expect(server.turns.last.agentId).toBe(agentId);
  });

  it("an unknown agent is a 400 model_not_found, via fetch and the SDK", async () => {
    const res = await send({ model: "openclaw/nobody" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: Record<string, string> };
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: "model", code: "model_not_found" });
    expect(body.error.message).toContain("nobody");
    const err = await client.chat.completions.create({ model: "agent:ghost", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("model_not_found");
  });

  it("x-openclaw-agent-id (or x-openclaw-agent) beats the model field", async () => {
    await send({ model: "openclaw/main" }, { "x-openclaw-agent-id": "ops-bot" });
    expect(server.turns.last.agentId).toBe("ops-bot");
    await send({ model: "openclaw/main" }, { "x-openclaw-agent": "home" });
    expect(server.turns.last.agentId).toBe("home");
    const completion = await client.chat.completions.create({ model: "openclaw/home", messages: [{ role: "user", content: "x" }] }, { headers: { "x-openclaw-agent-id": "main" } });
    expect(completion.model).toBe("openclaw/home");
    expect(server.turns.last.agentId).toBe("main");
    const unknown = await send({ model: "openclaw/main" }, { "x-openclaw-agent-id": "ghost" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { param: string } }).error.param).toBe("x-openclaw-agent-id");
  });

  it("x-openclaw-model is passed on; a malformed or unknown one is a 400 and runs nothing", async () => {
    await send({}, { "x-openclaw-model": "anthropic/claude-sonnet-4" });
    expect(server.turns.last.model).toBe("anthropic/claude-sonnet-4");
    await send({});
    expect(server.turns.last.model).toBeUndefined();
    const turnsBefore = server.turns.inputs.length;
    expect((await send({}, { "x-openclaw-model": "a b" })).status).toBe(400);
    const unknown = await send({}, { "x-openclaw-model": "nowhere/model-x" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: string; param: string; message: string } }).error).toMatchObject({
      code: "model_not_found",
      param: "x-openclaw-model",
      message: 'Unknown x-openclaw-model: provider "nowhere" is not configured',
    });
    expect(server.turns.inputs.length).toBe(turnsBefore);
  });
});

describe("sessions", () => {
  it("a user gets one stable session per agent", async () => {
    await send({ user: "alice" });
    const first = server.turns.last.sessionKey;
    await send({ user: "alice" });
    expect(server.turns.last.sessionKey).toBe(first);
    expect(first).toBe("agent:home:openai-user:alice");
    await send({ user: "alice", model: "openclaw/main" });
    expect(server.turns.last.sessionKey).toBe("agent:main:openai-user:alice");
  });

  it("a user with odd characters gets a stable hashed key", async () => {
    await send({ user: "Ålice Smith <a@b>" });
    const key = server.turns.last.sessionKey;
    expect(key).toMatch(/^agent:home:openai-user:sha256-[0-9a-f]{32}$/);
    await send({ user: "Ålice Smith <a@b>" });
    expect(server.turns.last.sessionKey).toBe(key);
  });

  it("without user or header every request is a fresh session", async () => {
    await send({});
    const a = server.turns.last.sessionKey;
    await send({});
    const b = server.turns.last.sessionKey;
    expect(a).toMatch(/^agent:home:openai:[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
  });

  it("x-openclaw-session-key wins over user", async () => {
    await send({ user: "alice" }, { "x-openclaw-session-key": "agent:home:main" });
    expect(server.turns.last.sessionKey).toBe("agent:home:main");
  });

  it.each([
    ["x".repeat(513), "longer than 512"],
    ["has space", "only letters"],
    ["tab\there", "only letters"],
    ["agent:home:../etc", "'..'"],
    ["cron:nightly", "reserved"],
    ["agent:home:subagent:x", "reserved"],
    ["acp:1", "reserved"],
  ])("a bad session key header %#  → 400", async (key, why) => {
    const before = server.turns.inputs.length;
    const res = await send({}, { "x-openclaw-session-key": key });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string; param: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.param).toBe("x-openclaw-session-key");
    expect(body.error.message).toContain(why);
    expect(server.turns.inputs.length).toBe(before);
  });

  it("accepts a session key of exactly 512 characters", async () => {
    expect((await send({}, { "x-openclaw-session-key": "k".repeat(512) })).status).toBe(200);
  });
});

describe("prompt building", () => {
  const conversation = [
    { role: "system", content: "Be brief." },
    { role: "developer", content: [{ type: "text", text: "Answer in English." }] },
    { role: "user", content: "first question" },
    { role: "assistant", content: "first answer" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: "42" },
    {
      role: "user",
      content: [
        { type: "text", text: "second" },
        { type: "input_text", text: "question" },
      ],
    },
  ];

  it("stateless: last user text is the message, system/developer the extra prompt, earlier turns the history", async () => {
    await send({ messages: conversation });
    const input = server.turns.last;
    expect(input.message).toBe("second\nquestion");
    expect(input.extraSystemPrompt).toBe("Be brief.\n\nAnswer in English.");
    expect(input.history).toEqual([
      { role: "user", text: "first question" },
      { role: "assistant", text: "first answer" },
      { role: "assistant", text: "[called f with {} (c1)]" },
      { role: "user", text: "Tool result of f (c1):\n42" },
    ]);
  });

  it("stateful (user or session header): no history, the session already has it", async () => {
    await send({ messages: conversation, user: "bob" });
    expect(server.turns.last.history).toBeUndefined();
    expect(server.turns.last.extraSystemPrompt).toBe("Be brief.\n\nAnswer in English.");
    await send({ messages: conversation }, { "x-openclaw-session-key": "agent:home:main" });
    expect(server.turns.last.history).toBeUndefined();
  });

  it("hands the request's function tools to the turn: none with tool_choice none, the choice when one is required", async () => {
    const tools = [
      { type: "function", function: { name: "lookup", description: "Look up", parameters: { type: "object", properties: { q: { type: "string" } } } } },
      { type: "function", function: { name: "ping" } },
    ];
    await send({ tools });
    expect(server.turns.last.clientTools).toEqual({
      tools: [{ name: "lookup", description: "Look up", parameters: { type: "object", properties: { q: { type: "string" } } } }, { name: "ping" }],
    });
    await send({ tools, tool_choice: "none" });
    expect(server.turns.last.clientTools).toBeUndefined();
    await send({ tools, tool_choice: "required" });
    expect(server.turns.last.clientTools?.choice).toBe("required");
    await send({ tools, tool_choice: { type: "function", function: { name: "ping" } } });
    expect(server.turns.last.clientTools?.choice).toEqual({ name: "ping" });
  });

  it("ignores unknown fields and images in older messages", async () => {
    const res = await send({
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
            { type: "text", text: "look" },
          ],
        },
        { role: "user", content: "and now?" },
      ],
      logprobs: false,
      metadata: { a: 1 },
      tools: [{ type: "function", function: { name: "f" } }],
      tool_choice: "auto",
      temperature: 0.3,
      parallel_tool_calls: true,
    });
    expect(res.status).toBe(200);
    expect(server.turns.last.history).toEqual([{ role: "user", text: "look" }]);
  });
});
