import { describe, expect, it } from "vitest";
import { pinnedModelFor } from "../../../../src/channels/routing/pinned-model.js";
import { validateConfig } from "../../../../src/config/index.js";

const { config } = validateConfig(
  {
    channels: {
      modelByChannel: {
        telegram: { "-100123": "fake/group-model", "-100123:topic:99": "fake/topic-model", "42": "fake/dm-model" },
        slack: { C1: "fake/channel-model", "user:U7": "fake/slack-dm-model" },
      },
    },
  },
  {},
);

describe("pinnedModelFor (channels.modelByChannel)", () => {
  it("a topic before its group, the sender in a DM (user:<id> on Slack), nothing elsewhere", () => {
    expect(pinnedModelFor(config, "telegram", { chatType: "group", chatId: "-100123", threadId: "99", senderId: "5" })).toBe("fake/topic-model");
    expect(pinnedModelFor(config, "telegram", { chatType: "group", chatId: "-100123", threadId: "7", senderId: "5" })).toBe("fake/group-model");
    expect(pinnedModelFor(config, "telegram", { chatType: "direct", chatId: "42", senderId: "42" })).toBe("fake/dm-model");
    expect(pinnedModelFor(config, "slack", { chatType: "direct", chatId: "D9", senderId: "U7" })).toBe("fake/slack-dm-model");
    expect(pinnedModelFor(config, "slack", { chatType: "channel", chatId: "C1", senderId: "U7" })).toBe("fake/channel-model");
    // A DM key does not match in a group, nor a group's in a DM.
    expect(pinnedModelFor(config, "telegram", { chatType: "group", chatId: "-100555", senderId: "42" })).toBeUndefined();
    expect(pinnedModelFor(config, "discord", { chatType: "direct", chatId: "1", senderId: "1" })).toBeUndefined();
  });
});
