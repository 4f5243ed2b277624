import { describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../../../../src/config/index.js";
import { isSubstantiveReply, replyViaFor, roomEventText, unmentionedAreRoomEvents } from "../../../../src/channels/dispatch/visible-replies.js";

const config = (messages: unknown, agents: unknown = { defaults: {} }) => ({ messages, agents }) as unknown as OpenClawConfig;
const REQUEST = { roomEvent: false, command: false };

describe("replyViaFor", () => {
  it("a room event answers only through the message tool, whatever visibleReplies says", () => {
    expect(replyViaFor(config({ visibleReplies: "automatic" }), "group", { roomEvent: true, command: false })).toBe("message_tool_only");
  });

  it("groups read groupChat.visibleReplies, then visibleReplies; DMs read only visibleReplies", () => {
    expect(replyViaFor(config({ groupChat: { visibleReplies: "message_tool" } }), "group", REQUEST)).toBe("message_tool");
    expect(replyViaFor(config({ groupChat: { visibleReplies: "message_tool" } }), "direct", REQUEST)).toBeUndefined();
    expect(replyViaFor(config({ visibleReplies: "message_tool" }), "channel", REQUEST)).toBe("message_tool");
    expect(replyViaFor(config({ visibleReplies: "message_tool", groupChat: { visibleReplies: "automatic" } }), "group", REQUEST)).toBeUndefined();
    expect(replyViaFor(config({ visibleReplies: "message_tool" }), "direct", REQUEST)).toBe("message_tool");
    expect(replyViaFor(config(undefined), "group", REQUEST)).toBeUndefined();
  });

  it("reads true as automatic and false as message_tool", () => {
    expect(replyViaFor(config({ visibleReplies: false }), "direct", REQUEST)).toBe("message_tool");
    expect(replyViaFor(config({ visibleReplies: false, groupChat: { visibleReplies: true } }), "group", REQUEST)).toBeUndefined();
  });

  it("a message a command handed the agent is answered as usual", () => {
    expect(replyViaFor(config({ visibleReplies: "message_tool" }), "direct", { roomEvent: false, command: true })).toBeUndefined();
  });
});

describe("unmentionedAreRoomEvents", () => {
  it("the agent's own groupChat setting wins over messages.groupChat", () => {
    const agents = {
      defaults: {},
      list: [{ id: "quiet", groupChat: { unmentionedInbound: "user_request" } }, { id: "ambient", groupChat: { unmentionedInbound: "room_event" } }, { id: "plain" }],
    };
    const cfg = config({ groupChat: { unmentionedInbound: "room_event" } }, agents);
    expect(unmentionedAreRoomEvents(cfg, "quiet")).toBe(false);
    expect(unmentionedAreRoomEvents(cfg, "plain")).toBe(true);
    expect(unmentionedAreRoomEvents(config({}, agents), "ambient")).toBe(true);
    expect(unmentionedAreRoomEvents(config({}, agents), "plain")).toBe(false);
  });
});

describe("room events and stranded replies", () => {
  it("a room event names each message by id under the marker, then the rule", () => {
    const text = roomEventText([
      { messageId: "7", text: "[Ann] lunch?" },
      { messageId: "8", text: "[Bob] yes" },
    ]);
    expect(text).toMatch(/^\[OpenClaw room event\]\n\nRoom context:\n#7 \[Ann\] lunch\?\n#8 \[Bob\] yes\n\nTreat this message as observed room activity/);
  });

  it("counts 280 characters, or 120 with two sentence ends, as substantive", () => {
    expect(isSubstantiveReply("x".repeat(280))).toBe(true);
    expect(isSubstantiveReply("x".repeat(279))).toBe(false);
    expect(isSubstantiveReply(`${"a".repeat(60)}. ${"b".repeat(60)}.`)).toBe(true);
    expect(isSubstantiveReply(`${"a".repeat(130)}.`)).toBe(false);
    expect(isSubstantiveReply("Sure. Done!")).toBe(false);
  });
});
