import { describe, expect, it } from "vitest";
import { buildInboundDedupeKey } from "../../../../src/channels/inbound/dedupe-key.js";
import { finalizeInboundContext } from "../../../../src/channels/inbound/msg-context.js";
import { parseControlCommand } from "../../../../src/conversations/commands/chat-commands.js";
import type { ChannelEnvelope } from "../../../../src/channels/types.js";

const envelope: ChannelEnvelope = { messageId: "456", chatType: "group", chatId: "-100", threadId: "7", senderId: "42", senderName: "Ann", text: "@MyBot /status@MyBot now", timestamp: 1000 };

describe("finalizeInboundContext", () => {
  it("fills the MsgContext and strips the bot's mention from what the agent and commands see", () => {
    const ctx = finalizeInboundContext({ channel: "telegram", accountId: "default", envelope, sessionKey: "agent:main:telegram:group:-100:topic:7", wasMentioned: true, commandAuthorized: false, botUsername: "MyBot" });
    expect(ctx).toMatchObject({ Body: "@MyBot /status@MyBot now", BodyForCommands: "/status now", Provider: "telegram", ChatType: "group", GroupId: "-100", MessageThreadId: "7", MessageSid: "456", OriginatingTo: "-100", WasMentioned: true });
    const discord = finalizeInboundContext({ channel: "discord", accountId: "default", envelope: { ...envelope, text: "<@99> hello" }, sessionKey: "k", wasMentioned: true, commandAuthorized: false, botId: "99" });
    expect(discord.BodyForAgent).toBe("hello");
  });
});

describe("buildInboundDedupeKey", () => {
  it("is {provider}|{accountId}|{sessionKey}|{peerId}|{threadId}|{messageId}, empty parts dropped", () => {
    const ctx = finalizeInboundContext({ channel: "telegram", accountId: "default", envelope, sessionKey: "agent:main:telegram:group:-100:topic:7", wasMentioned: true, commandAuthorized: false });
    expect(buildInboundDedupeKey(ctx)).toBe("telegram|default|agent:main:telegram:group:-100:topic:7|-100|7|456");
    const dmCtx = finalizeInboundContext({ channel: "slack", accountId: "default", envelope: { ...envelope, chatType: "direct", chatId: "D1", threadId: undefined, senderId: "U1" }, sessionKey: "agent:main:main", wasMentioned: true, commandAuthorized: false });
    expect(buildInboundDedupeKey(dmCtx)).toBe("slack|default|agent:main:main|U1|456");
    expect(buildInboundDedupeKey({ ...dmCtx, MessageSid: "" })).toBeNull();
  });
});

describe("parseControlCommand", () => {
  it("knows the control commands and their aliases; other slashes are text for the agent", () => {
    expect(parseControlCommand("/stop")).toMatchObject({ name: "stop", args: "" });
    expect(parseControlCommand("/abort")).toMatchObject({ name: "stop" });
    expect(parseControlCommand(" /queue collect ")).toMatchObject({ name: "queue", args: "collect", spec: { ownerOnly: true } });
    expect(parseControlCommand("/id")).toMatchObject({ name: "whoami" });
    expect(parseControlCommand("/weather tomorrow")).toBeNull();
    expect(parseControlCommand("please /stop")).toBeNull();
  });
});
