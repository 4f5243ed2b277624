import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chatRequests, lastUserText } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useTelegramGateway } from "../helpers/telegram-gateway.js";

/**
 * The optional fields of `chat.send` that real clients send: each one does what OpenClaw does
 * with it (`thinking`, `timeoutMs`, `deliver`, `suppressCommandInterpretation`,
 * `expectedLeafEntryId`) or is refused with "not supported: <field>" before anything runs.
 */

const OWNER = 4242;
const fakes = useTelegramGateway({
  config: ({ model, telegram, stateDir }) => ({
    agents: { defaults: { workspace: `${stateDir}/workspace`, model: { primary: "fake/thinker" } } },
    models: { providers: { fake: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "thinker", reasoning: true }] } } },
    channels: {
      telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }),
    },
  }),
});

async function send(params: Frame, socket: TestSocket = fakes.sock): Promise<Frame> {
  return socket.request("chat.send", { idempotencyKey: randomUUID(), ...params });
}

/** Sends and waits for the run's last chat event (final, error or aborted). */
async function turn(params: Frame): Promise<Frame> {
  const key = randomUUID();
  const res = await send({ ...params, idempotencyKey: key });
  expect(res.error).toBeUndefined();
  return fakes.sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error", "aborted"].includes(f.payload.state), 20_000);
}

describe("chat.send fields", () => {
  it("thinking sets this turn's thinking level on the wire; the next turn is back to the session's", async () => {
    await turn({ sessionKey: "think", message: "ponder", thinking: "high" });
    expect(chatRequests(fakes.model).at(-1)!.body.reasoning_effort).toBe("high");
    await turn({ sessionKey: "think", message: "again" });
    expect(chatRequests(fakes.model).at(-1)!.body.reasoning_effort).toBeUndefined();
    const bad = await send({ sessionKey: "think", message: "x", thinking: "enormous" });
    expect(bad.error.message).toMatch(/^invalid thinking "enormous": use one of off, minimal/);
  });

  it("timeoutMs bounds the run: a model that never answers ends in a timeout error", async () => {
    fakes.model.setResponder(() => ({ stall: "headers" }));
    try {
      const end = await turn({ sessionKey: "slow", message: "take forever", timeoutMs: 1500 });
      expect(end.payload.state).toBe("error");
      expect(end.payload.errorMessage).toMatch(/timed out/);
    } finally {
      fakes.model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
    }
  });

  it("a timeout longer than a timer can hold (over 24.8 days) leaves the run unbounded instead of ending it at once", async () => {
    const end = await turn({ sessionKey: "patient", message: "take your time", timeoutMs: 40 * 24 * 3600 * 1000 });
    expect(end.payload.state).toBe("final");
    expect(end.payload.message.content[0].text).toBe("model: take your time");
  });

  it("deliver: true sends the reply to the chat the session last talked in; a session with no chat is refused", async () => {
    fakes.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "hi from telegram", messageId: 1 });
    await fakes.telegram.waitFor(() => fakes.telegram.messages(OWNER).length === 1, 20_000);
    await turn({ sessionKey: "agent:main:main", message: "tell the phone", deliver: true });
    await fakes.telegram.waitFor(() => fakes.telegram.messages(OWNER).length === 2, 20_000);
    expect(String(fakes.telegram.messages(OWNER)[1]!.text)).toBe("model: tell the phone");
    // What the TUI sends (deliver: false) stays in the operator client.
    await turn({ sessionKey: "agent:main:main", message: "just here", deliver: false });
    const refused = await send({ sessionKey: "no-chat", message: "x", deliver: true });
    expect(refused.error.message).toBe("deliver: session agent:main:no-chat has no chat to deliver to (no channel message reached it yet)");
    expect(fakes.telegram.messages(OWNER)).toHaveLength(2);
  });

  it("refuses the fields this gateway has no feature for, naming the field, and runs nothing", async () => {
    const before = chatRequests(fakes.model).length;
    for (const [field, value] of [
      ["replyToId", "m1"],
      ["originatingChannel", "telegram"],
      ["originatingTo", "123"],
      ["clarification", { id: "q1" }],
      ["fastAutoOnSeconds", 10],
      ["fastMode", true],
    ] as const) {
      const res = await send({ sessionKey: "refused", message: "hello", [field]: value });
      expect(res.error.message).toMatch(new RegExp(`^not supported: ${field} `));
    }
    expect((await turn({ sessionKey: "refused", message: "plain", fastMode: false })).payload.state).toBe("final");
    expect(chatRequests(fakes.model).length).toBe(before + 1);
  });

  it("the agent method applies thinking and timeout as chat.send does, and refuses fields it has no feature for, running nothing", async () => {
    const id = randomUUID();
    fakes.sock.send({ type: "req", id, method: "agent", params: { message: "ponder", sessionKey: "agent-think", idempotencyKey: id, thinking: "high", timeout: 60 } });
    const final = await fakes.sock.waitFor((f) => f.type === "res" && f.id === id && f.payload?.status !== "accepted", 20_000);
    expect(final.payload.status).toBe("ok");
    expect(chatRequests(fakes.model).at(-1)!.body.reasoning_effort).toBe("high");
    const before = chatRequests(fakes.model).length;
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ thinking: "enormous" }, /^invalid thinking "enormous": use one of off, minimal/],
      [{ model: "fake/other" }, /^not supported: model .*sessions\.patch/],
      [{ provider: "fake" }, /^not supported: provider /],
    ];
    for (const [fields, message] of refused) {
      const res = await fakes.sock.request("agent", { message: "x", sessionKey: "agent-think", idempotencyKey: randomUUID(), ...fields });
      expect(res.error, JSON.stringify(fields)).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringMatching(message) });
    }
    expect((await fakes.sock.request("chat.history", { sessionKey: "agent-think" })).payload.messages).toHaveLength(2);
    expect(chatRequests(fakes.model).length).toBe(before);
  });

  it("suppressCommandInterpretation (admin) hands a /text to the agent; a writer may not send it", async () => {
    const end = await turn({ sessionKey: "literal", message: "/status", suppressCommandInterpretation: true });
    expect(end.payload.message.content[0].text).toBe("model: /status");
    const writer = (await openOperator(fakes.gw.url, fakes.gw.token, { scopes: ["operator.read", "operator.write"] })).sock;
    try {
      const res = await send({ sessionKey: "literal", message: "/status", suppressCommandInterpretation: true }, writer);
      expect(res.error.message).toBe("suppressCommandInterpretation requires admin scope (operator.admin)");
    } finally {
      writer.close();
    }
  });

  it("expectedLeafEntryId: accepted while it is the latest entry, refused once the transcript moved on", async () => {
    await turn({ sessionKey: "leaf", message: "first" });
    const history = await fakes.sock.request("chat.history", { sessionKey: "leaf" });
    const leaf = history.payload.messages.at(-1).__openclaw.id as string;
    expect((await turn({ sessionKey: "leaf", message: "second", expectedLeafEntryId: leaf })).payload.state).toBe("final");
    const stale = await send({ sessionKey: "leaf", message: "third", expectedLeafEntryId: leaf });
    expect(stale.error.message).toMatch(/^the session changed: its latest entry is \S+, not expectedLeafEntryId /);
  });
});
