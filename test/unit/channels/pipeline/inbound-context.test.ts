import { describe, expect, it } from "vitest";
import { buildInboundDedupeKey } from "../../../../src/channels/inbound/dedupe-key.js";
import { finalizeInbound } from "../../../../src/channels/inbound/finalize-inbound.js";
import { parseControlCommand } from "../../../../src/conversations/commands/chat-commands.js";
import type { InboundMessage } from "../../../../src/channels/types.js";

const message: InboundMessage = {
  messageId: "456",
  chatType: "group",
  chatId: "-100",
  threadId: "7",
  senderId: "42",
  senderName: "Ann",
  text: "@MyBot /status@MyBot now",
  timestamp: 1000,
};

describe("finalizeInbound", () => {
  it("fills the finalized inbound message and strips the bot's mention from what the agent and commands see", () => {
    const finalized = finalizeInbound({
      channel: "telegram",
      accountId: "default",
      message,
      sessionKey: "agent:main:telegram:group:-100:topic:7",
      wasMentioned: true,
      commandAuthorized: false,
      botUsername: "MyBot",
    });
    expect(finalized).toMatchObject({
      text: "@MyBot /status@MyBot now",
      bodyForCommands: "/status now",
      channel: "telegram",
      chatType: "group",
      chatId: "-100",
      threadId: "7",
      messageId: "456",
      wasMentioned: true,
    });
    const discord = finalizeInbound({
      channel: "discord",
      accountId: "default",
      message: { ...message, text: "<@99> hello" },
      sessionKey: "k",
      wasMentioned: true,
      commandAuthorized: false,
      botId: "99",
    });
    expect(discord.bodyForAgent).toBe("hello");
  });
});

describe("buildInboundDedupeKey", () => {
  it("is {provider}|{accountId}|{sessionKey}|{peerId}|{threadId}|{messageId}, empty parts dropped", () => {
    const finalized = finalizeInbound({
      channel: "telegram",
      accountId: "default",
      message,
      sessionKey: "agent:main:telegram:group:-100:topic:7",
      wasMentioned: true,
      commandAuthorized: false,
    });
    expect(buildInboundDedupeKey(finalized)).toBe("telegram|default|agent:main:telegram:group:-100:topic:7|-100|7|456");
    const dm = finalizeInbound({
      channel: "slack",
      accountId: "default",
      message: { ...message, chatType: "direct", chatId: "D1", threadId: undefined, senderId: "U1" },
      sessionKey: "agent:main:main",
      wasMentioned: true,
      commandAuthorized: false,
    });
    expect(buildInboundDedupeKey(dm)).toBe("slack|default|agent:main:main|U1|456");
    expect(buildInboundDedupeKey({ ...dm, messageId: "" })).toBeNull();
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
