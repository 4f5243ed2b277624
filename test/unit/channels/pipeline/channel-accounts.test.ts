import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { anyChannelConfigured, defaultAccountId, resolveChannelAccounts } from "../../../../src/channels/config/channel-accounts.js";

describe("channel accounts from config", () => {
  it("a block without accounts is the one default account", () => {
    const { config, warnings } = validateConfig({ channels: { telegram: { botToken: "1:a", dmPolicy: "open" } } }, {});
    expect(warnings).toEqual([]);
    expect(resolveChannelAccounts(config, "telegram")).toEqual([{ channel: "telegram", accountId: "default", enabled: true, config: { botToken: "1:a", dmPolicy: "open" } }]);
    expect(resolveChannelAccounts(config, "discord")).toEqual([]);
  });

  it("accounts override the block's keys and inherit the rest; enabled:false at either level stops one", () => {
    const { config } = validateConfig(
      {
        channels: {
          slack: {
            dmPolicy: "allowlist",
            allowFrom: ["U1"],
            accounts: { Work: { botToken: "xoxb-w", allowFrom: ["U2"] }, home: { botToken: "xoxb-h", enabled: false } },
            defaultAccount: "work",
          },
        },
      },
      {},
    );
    const accounts = resolveChannelAccounts(config, "slack");
    expect(accounts.map((a) => [a.accountId, a.enabled, a.config.allowFrom, a.config.dmPolicy])).toEqual([
      ["work", true, ["U2"], "allowlist"],
      ["home", false, ["U1"], "allowlist"],
    ]);
    expect(defaultAccountId(config, "slack")).toBe("work");
  });

  it("a bad value inside an account is reported with its path", () => {
    expect(() => validateConfig({ channels: { telegram: { accounts: { a: { dmPolicy: "everyone" } } } } }, {})).toThrow(/channels\.telegram\.accounts\.a\.dmPolicy/);
  });

  it("any channel block, even a disabled one, counts as configured; none means the manager is never loaded", () => {
    expect(anyChannelConfigured(validateConfig({}, {}).config)).toBe(false);
    expect(anyChannelConfigured(validateConfig({ channels: { discord: { enabled: false } } }, {}).config)).toBe(true);
    expect(anyChannelConfigured(validateConfig({ channels: { slack: { botToken: "xoxb-1" } } }, {}).config)).toBe(true);
  });
});
