import { describe, expect, it } from "vitest";
import { approverDmTarget, chatExecApprovers, execApprovalClient } from "../../../src/channels/config/channel-exec-approvals.js";
import { ConfigError, validateConfig } from "../../../src/config/index.js";

const ALICE = "100000000000000001";
const BOB = "100000000000000002";

const load = (channels: Record<string, unknown>, owners?: string[]) => validateConfig({ channels, ...(owners ? { commands: { ownerAllowFrom: owners } } : {}) }, {}).config;
const telegram = (extra: Record<string, unknown>) => ({ telegram: { botToken: "1:a", ...extra } });
const discord = (extra: Record<string, unknown>) => ({ discord: { token: "t", ...extra } });

describe("exec approval clients (channels.<channel>.execApprovals)", () => {
  it("Telegram: on by default; the explicit list (prefixes taken off), else the owners' numeric Telegram ids", () => {
    expect(execApprovalClient(load(telegram({ execApprovals: { approvers: ["telegram:5", "tg:5", "6"] } }), ["telegram:901"]), "telegram", "default")?.approvers).toEqual([
      "5",
      "6",
    ]);
    expect(execApprovalClient(load(telegram({}), ["telegram:901", "tg:902", "903", `discord:${ALICE}`, "*", "slack:U1"]), "telegram", "default")?.approvers).toEqual([
      "901",
      "902",
      "903",
    ]);
    // No approver resolves: no client, the owners answer in the run's chat.
    expect(execApprovalClient(load(telegram({})), "telegram", "default")).toBeUndefined();
    expect(execApprovalClient(load(telegram({ execApprovals: { enabled: false, approvers: ["5"] } })), "telegram", "default")).toBeUndefined();
  });

  it("Discord: off unless enabled is true or auto; approvers as ids, user:, discord: or mentions; else the owners' Discord ids", () => {
    const approvers = [`discord:${ALICE}`, `<@!${BOB}>`, `user:${ALICE}`];
    expect(execApprovalClient(load(discord({ execApprovals: { approvers } })), "discord", "default")).toBeUndefined();
    const client = execApprovalClient(load(discord({ execApprovals: { enabled: true, approvers, target: "both", cleanupAfterResolve: true } })), "discord", "default")!;
    expect(client).toMatchObject({ channel: "discord", approvers: [ALICE, BOB], target: "both", cleanupAfterResolve: true });
    expect(approverDmTarget(client, ALICE)).toBe(`user:${ALICE}`);
    const fromOwners = execApprovalClient(load(discord({ execApprovals: { enabled: "auto" } }), [`discord:${BOB}`, "telegram:901", "*"]), "discord", "default")!;
    expect(fromOwners).toMatchObject({ approvers: [BOB], target: "dm", cleanupAfterResolve: false });
    expect(execApprovalClient(load(discord({ execApprovals: { enabled: "auto" } }), ["telegram:901"]), "discord", "default")).toBeUndefined();
  });

  it("Slack: off unless enabled; approvers as U…/W… ids (slack:, user:, mentions, any case), upper-cased; else the owners' Slack ids", () => {
    const slack = (extra: Record<string, unknown>) => ({ slack: { botToken: "xoxb-1", appToken: "xapp-1", ...extra } });
    expect(execApprovalClient(load(slack({ execApprovals: { approvers: ["U1A"] } })), "slack", "default")).toBeUndefined();
    const client = execApprovalClient(load(slack({ execApprovals: { enabled: true, approvers: ["slack:u1a", "<@W2B>", "user:U1A"] } })), "slack", "default")!;
    expect(client).toMatchObject({ channel: "slack", approvers: ["U1A", "W2B"], target: "dm" });
    expect(approverDmTarget(client, "U1A")).toBe("user:U1A");
    expect(execApprovalClient(load(slack({ execApprovals: { enabled: "auto" } }), ["slack:U9Z", "telegram:901"]), "slack", "default")?.approvers).toEqual(["U9Z"]);
  });

  it("who alone answers in the account's chats: the approvers, on Telegram and Discord even with the client off; on Slack only while it is on", () => {
    const off = { execApprovals: { enabled: false, approvers: [ALICE] } };
    expect(chatExecApprovers(load(discord(off)), "discord", "default")).toEqual([ALICE]);
    expect(chatExecApprovers(load(discord({}), [`discord:${BOB}`]), "discord", "default")).toEqual([BOB]);
    expect(chatExecApprovers(load(telegram({ execApprovals: { enabled: false, approvers: ["5"] } })), "telegram", "default")).toEqual(["5"]);
    const slack = (extra: Record<string, unknown>) => ({ slack: { botToken: "xoxb-1", appToken: "xapp-1", ...extra } });
    expect(chatExecApprovers(load(slack({ execApprovals: { approvers: ["U1A"] } })), "slack", "default")).toBeUndefined();
    expect(chatExecApprovers(load(slack({ execApprovals: { enabled: true, approvers: ["U1A"] } })), "slack", "default")).toEqual(["U1A"]);
    // No approver resolves: the owners answer.
    expect(chatExecApprovers(load(discord({})), "discord", "default")).toBeUndefined();
  });

  it("an account's own settings; a disabled account is no client", () => {
    const config = load(
      discord({
        execApprovals: { enabled: true, approvers: [ALICE] },
        accounts: { work: { token: "w", execApprovals: { enabled: true, approvers: [BOB], target: "channel" } }, off: { token: "o", enabled: false } },
      }),
    );
    expect(execApprovalClient(config, "discord", "work")).toMatchObject({ approvers: [BOB], target: "channel" });
    expect(execApprovalClient(config, "discord", "off")).toBeUndefined();
  });

  it("refuses an approver that is not a Discord user id, and a sessionFilter regex that does not compile", () => {
    const issues = (raw: Record<string, unknown>) => {
      try {
        validateConfig({ channels: discord({ execApprovals: raw }) }, {});
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).issues.map((i) => `${i.path}: ${i.message}`);
      }
      return [];
    };
    expect(issues({ approvers: ["alice"] })).toEqual(["channels.discord.execApprovals.approvers[0]: expected a Discord user id (17-20 digits)"]);
    expect(issues({ sessionFilter: ["/(/"] })).toEqual([expect.stringMatching(/^channels\.discord\.execApprovals\.sessionFilter\[0\]: not a valid \/regular expression\//)]);
  });
});
