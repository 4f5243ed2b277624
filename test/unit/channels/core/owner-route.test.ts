import { describe, expect, it } from "vitest";
import { ownerDmTarget, resolveOwnerRoute } from "../../../../src/channels/routing/owner-route.js";
import { applyDefaults } from "../../../../src/config/defaults.js";

const config = (raw: Record<string, unknown>) => applyDefaults(raw as never);
const telegram = { botToken: "1:tg" };
const discord = { token: "dc" };
const slack = { botToken: "xoxb-1", appToken: "xapp-1" };

describe("ownerDmTarget", () => {
  it("turns an allow-list entry that names a user by id into the target that DMs them, and nothing else", () => {
    expect(ownerDmTarget("telegram", "telegram:123")).toBe("123");
    expect(ownerDmTarget("telegram", "tg:123")).toBe("123");
    expect(ownerDmTarget("telegram", "-100123")).toBeUndefined();
    expect(ownerDmTarget("telegram", "@alice")).toBeUndefined();
    expect(ownerDmTarget("discord", "80351110224678912")).toBe("user:80351110224678912");
    expect(ownerDmTarget("discord", "<@80351110224678912>")).toBe("user:80351110224678912");
    expect(ownerDmTarget("discord", "alice")).toBeUndefined();
    expect(ownerDmTarget("slack", "U0123ABC")).toBe("user:U0123ABC");
    expect(ownerDmTarget("slack", "slack:u0123abc")).toBe("user:U0123ABC");
    expect(ownerDmTarget("slack", "C0123ABC")).toBeUndefined();
    for (const channel of ["telegram", "discord", "slack"] as const) expect(ownerDmTarget(channel, "*")).toBeUndefined();
  });
});

describe("resolveOwnerRoute", () => {
  it("an owner commands.ownerAllowFrom names comes before any allowFrom, on the first channel where it names a user", () => {
    const cfg = config({
      channels: { telegram: { ...telegram, allowFrom: ["555"] }, slack: { ...slack } },
      commands: { ownerAllowFrom: ["slack:U0OWNER", "telegram:@alice"] },
    });
    expect(resolveOwnerRoute(cfg, undefined)).toEqual({ channel: "slack", to: "user:U0OWNER", accountId: "default" });
  });

  it("the channel the main session last talked on is tried first; a bare owner id fits any channel", () => {
    const cfg = config({ channels: { telegram: { ...telegram }, discord: { ...discord } }, commands: { ownerAllowFrom: ["80351110224678912"] } });
    expect(resolveOwnerRoute(cfg, undefined)).toEqual({ channel: "telegram", to: "80351110224678912", accountId: "default" });
    expect(resolveOwnerRoute(cfg, { channel: "discord" })).toEqual({ channel: "discord", to: "user:80351110224678912", accountId: "default" });
  });

  it("without an owner, the first user a DM allowFrom lists, on the account asked for, else the last chat's, else the default", () => {
    const cfg = config({
      channels: { telegram: { ...telegram, allowFrom: ["@alice", "111"], accounts: { work: { botToken: "2:tg", allowFrom: ["222"] } } } },
    });
    expect(resolveOwnerRoute(cfg, undefined)).toEqual({ channel: "telegram", to: "111", accountId: "default" });
    expect(resolveOwnerRoute(cfg, { channel: "telegram", accountId: "work" })).toEqual({ channel: "telegram", to: "222", accountId: "work" });
    expect(resolveOwnerRoute(cfg, undefined, "work")).toEqual({ channel: "telegram", to: "222", accountId: "work" });
  });

  it("finds none when no entry names a user, or the only channel that would is disabled", () => {
    expect(resolveOwnerRoute(config({ channels: { telegram: { ...telegram, allowFrom: ["*", "@alice"] } } }), undefined)).toBeUndefined();
    expect(resolveOwnerRoute(config({ channels: { telegram: { ...telegram, enabled: false, allowFrom: ["111"] } } }), undefined)).toBeUndefined();
    expect(resolveOwnerRoute(config({ commands: { ownerAllowFrom: ["telegram:111"] } }), undefined)).toBeUndefined();
  });
});
