import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";

describe("accessGroups", () => {
  it("loads message.senders groups and warns about entries that admit nobody", () => {
    const { config, warnings } = validateConfig(
      {
        accessGroups: { ops: { type: "message.senders", members: { telegram: ["111", "*"], whatsapp: ["+1555"] } } },
        channels: {
          telegram: { allowFrom: ["accessGroup:ops", "accessGroup:oncall"], groups: { "-100": { allowFrom: ["accessGroup:team"] } } },
          discord: { guilds: { "1": { users: ["accessGroup:ops"], channels: { "2": { users: ["accessGroup:nobody"] } } } } },
        },
        commands: { allowFrom: { "*": ["accessGroup:admins"] }, ownerAllowFrom: ["accessGroup:ops"] },
      },
      {},
    );
    expect(config.accessGroups?.ops?.members.telegram).toEqual(["111", "*"]);
    const about = (text: string) => warnings.filter((w) => w.includes(text));
    expect(about("names no accessGroups entry")).toEqual([
      expect.stringMatching(/^channels\.telegram\.allowFrom: accessGroup:oncall names no accessGroups entry, so it admits nobody: define accessGroups\.oncall/),
      expect.stringMatching(/^channels\.telegram\.groups\.-100\.allowFrom: accessGroup:team /),
      expect.stringMatching(/^channels\.discord\.guilds\.1\.channels\.2\.users: accessGroup:nobody /),
      expect.stringMatching(/^commands\.allowFrom\["\*"\]: accessGroup:admins /),
    ]);
    expect(about("names nobody as the owner")).toHaveLength(1);
    expect(about('accessGroups.ops.members.telegram: "*" admits nobody')).toHaveLength(1);
    expect(about("accessGroups.ops.members.whatsapp: not a channel of this gateway")).toHaveLength(1);
    expect(warnings.some((w) => w.includes("is not a numeric Telegram user id"))).toBe(false);
  });

  it("refuses a group type it does not support, naming the supported one", () => {
    expect(() => validateConfig({ accessGroups: { team: { type: "discord.channelAudience", guildId: "1", channelId: "2" } } }, {})).toThrow(
      /accessGroups\.team\.type.*message\.senders/s,
    );
  });
});
