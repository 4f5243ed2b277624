import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chatRequests, requestMessages } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useTelegramGateway } from "../helpers/telegram-gateway.js";
import type { Frame } from "../helpers/ws-client.js";

/**
 * The `agent` fields that pick where a turn runs (`to`, `channel`, `accountId`, `threadId`), label
 * its session (`label`), or belong to runs the gateway starts itself (`lane`, `group*`): each does
 * what OpenClaw does with it or is refused by name before anything runs, never dropped.
 */

const OWNER = 4242;
const GROUP = -100555;
const fakes = useTelegramGateway({
  scopes: ["operator.admin"],
  config: ({ model, telegram, stateDir }) => ({
    agents: { defaults: { workspace: `${stateDir}/workspace`, model: { primary: "fake/m" } } },
    models: { providers: { fake: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "m" }] } } },
    session: { dmScope: "per-channel-peer" },
    channels: { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) },
  }),
});

/** Sends `agent` and waits for its final response. */
async function turn(params: Frame): Promise<Frame> {
  const ack = await fakes.sock.request("agent", { idempotencyKey: randomUUID(), ...params }, 20_000);
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  return fakes.sock.waitFor((f) => f.type === "res" && f.id === ack.id && f.payload?.status !== "accepted", 20_000);
}

async function sessionKeys(): Promise<string[]> {
  const res = await fakes.sock.request("sessions.list", {});
  return res.payload.sessions.map((s: Frame) => s.key);
}

describe("agent: to picks the session", () => {
  it("to and channel without sessionKey continue the session that chat's own messages use, and send nothing to the chat", async () => {
    fakes.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, fromName: "Owner", text: "my name is Ada" });
    await fakes.telegram.waitFor(() => fakes.telegram.messages(OWNER).length === 1, 20_000);
    // What `openclaw agent --agent main --channel telegram --to 4242 -m …` sends.
    const final = await turn({ message: "what is my name?", agentId: "main", to: String(OWNER), channel: "telegram", deliver: false, timeout: 600 });
    expect(final.payload.status).toBe("ok");
    const history = requestMessages(chatRequests(fakes.model).at(-1)!).map((m) => m.text);
    expect(history).toEqual(expect.arrayContaining(["my name is Ada", "what is my name?"]));
    expect(await sessionKeys()).toContain(`agent:main:telegram:direct:${OWNER}`);
    // With one channel running, `to` alone names a chat on it, as for deliver.
    await turn({ message: "and again?", to: String(OWNER) });
    expect(requestMessages(chatRequests(fakes.model).at(-1)!).map((m) => m.text)).toEqual(expect.arrayContaining(["my name is Ada", "and again?"]));
    expect(await sessionKeys()).not.toContain("agent:main:main");
    expect(fakes.telegram.messages(OWNER)).toHaveLength(1);
  });

  it("a group's id is looked up on the channel and keys the group's session; an unknown chat is refused", async () => {
    // The fake Bot API's getChat knows a chat once a message was posted in it.
    fakes.telegram.pushMessage({ chatId: GROUP, fromId: OWNER, fromName: "Owner", text: "group hello" });
    await turn({ message: "in the group", to: String(GROUP), channel: "telegram" });
    expect(await sessionKeys()).toContain(`agent:main:telegram:group:${GROUP}`);
    const before = chatRequests(fakes.model).length;
    const unknown = await fakes.sock.request("agent", { message: "x", to: "-100777", channel: "telegram", idempotencyKey: randomUUID() });
    expect(unknown.error.code).toBe("INVALID_REQUEST");
    expect(unknown.error.message).toMatch(/^to: cannot look up Telegram chat -100777: .*chat not found/);
    expect(chatRequests(fakes.model).length).toBe(before);
  });

  it("sessionKey wins over to; a to that is a session key names that session", async () => {
    await turn({ message: "keyed", sessionKey: "keyed-notes", to: String(OWNER), channel: "telegram" });
    await turn({ message: "by to", to: "agent:main:to-notes" });
    const keys = await sessionKeys();
    expect(keys).toEqual(expect.arrayContaining(["agent:main:keyed-notes", "agent:main:to-notes"]));
  });
});

describe("agent: label", () => {
  it("labels the session the turn runs in, with the rules of sessions.patch", async () => {
    await turn({ message: "first", sessionKey: "report", label: "  Weekly report " });
    const rows = (await fakes.sock.request("sessions.list", { label: "Weekly report" })).payload.sessions;
    expect(rows.map((r: Frame) => r.key)).toEqual(["agent:main:report"]);
    const before = chatRequests(fakes.model).length;
    const taken = await fakes.sock.request("agent", { message: "x", sessionKey: "other-report", label: "Weekly report", idempotencyKey: randomUUID() });
    expect(taken.error.message).toBe('label "Weekly report" is already used by session agent:main:report');
    const control = await fakes.sock.request("agent", { message: "x", sessionKey: "report", label: "a\nb", idempotencyKey: randomUUID() });
    expect(control.error.message).toMatch(/^label has a control character \(U\+000A/);
    expect(chatRequests(fakes.model).length).toBe(before);
    expect(await sessionKeys()).not.toContain("agent:main:other-report");
  });

  it("a message the session refuses leaves no label behind", async () => {
    const refused = await fakes.sock.request("agent", { message: "x", sessionKey: "agent:main:acp:labelled", label: "Never set", idempotencyKey: randomUUID() });
    expect(refused.error.message).toContain("is an ACP agent's session");
    expect((await fakes.sock.request("sessions.list", { label: "Never set" })).payload.sessions).toEqual([]);
  });
});

describe("agent: fields that would change nothing", () => {
  it("refuses each by name, saying why, and runs nothing", async () => {
    const before = chatRequests(fakes.model).length;
    const cases: [Frame, RegExp][] = [
      [{ lane: "subagent" }, /^not supported: lane \(/],
      [{ groupId: "g1" }, /^not supported: groupId \(/],
      [{ groupChannel: "#ops" }, /^not supported: groupChannel \(/],
      [{ groupSpace: "s1" }, /^not supported: groupSpace \(/],
      [{ replyTo: String(OWNER) }, /^replyTo only says where deliver: true sends the reply/],
      [{ replyChannel: "telegram" }, /^replyChannel only says where deliver: true sends the reply/],
      [{ replyAccountId: "default" }, /^replyAccountId only says where deliver: true/],
      [{ channel: "telegram" }, /^channel only qualifies the chat `to` names or the delivery/],
      [{ accountId: "default" }, /^accountId only qualifies/],
      [{ threadId: 7 }, /^threadId only qualifies/],
    ];
    for (const [fields, message] of cases) {
      const res = await fakes.sock.request("agent", { message: "x", sessionKey: "refusals", idempotencyKey: randomUUID(), ...fields });
      expect(res.error?.code, JSON.stringify(fields)).toBe("INVALID_REQUEST");
      expect(res.error.message).toMatch(message);
    }
    expect(chatRequests(fakes.model).length).toBe(before);
    expect(await sessionKeys()).not.toContain("agent:main:refusals");
  });

  it("deliver without to refuses a channel the session's chat is not on", async () => {
    const mismatch = await fakes.sock.request("agent", {
      message: "x",
      sessionKey: `agent:main:telegram:direct:${OWNER}`,
      deliver: true,
      accountId: "work",
      idempotencyKey: randomUUID(),
    });
    expect(mismatch.error.message).toBe("deliver: the session's chat has accountId default, not work; add to to name the chat on work");
  });
});
