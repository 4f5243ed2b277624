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
      ["home", false, ["U1"], "allowlist"],
      ["work", true, ["U2"], "allowlist"],
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

  it("a top-level token beside accounts is the default account too; the named accounts still inherit the rest", () => {
    const { config, warnings } = validateConfig({ channels: { telegram: { botToken: "1:top", dmPolicy: "open", accounts: { work: { botToken: "2:work" } } } } }, {});
    expect(warnings).toEqual([]);
    expect(resolveChannelAccounts(config, "telegram", {})).toEqual([
      { channel: "telegram", accountId: "default", enabled: true, config: { botToken: "1:top", dmPolicy: "open" } },
      { channel: "telegram", accountId: "work", enabled: true, config: { botToken: "2:work", dmPolicy: "open" } },
    ]);
    expect(defaultAccountId(config, "telegram")).toBe("default");
  });

  it("which top-level keys make the default account, per channel, and that env tokens count for it alone", () => {
    const ids = (channels: Record<string, unknown>, channel: "telegram" | "discord" | "slack", env: NodeJS.ProcessEnv = {}) =>
      resolveChannelAccounts(validateConfig({ channels }, {}).config, channel, env).map((a) => a.accountId);
    const work = { work: {} };
    expect(ids({ telegram: { tokenFile: "/run/tg", accounts: work } }, "telegram")).toEqual(["default", "work"]);
    expect(ids({ telegram: { dmPolicy: "open", accounts: work } }, "telegram")).toEqual(["work"]);
    expect(ids({ telegram: { dmPolicy: "open", accounts: work } }, "telegram", { TELEGRAM_BOT_TOKEN: "1:env" })).toEqual(["default", "work"]);
    expect(ids({ telegram: { botToken: "1:top", accounts: { Default: {}, work: {} } } }, "telegram")).toEqual(["default", "work"]);
    expect(ids({ discord: { token: "d.top", accounts: work } }, "discord")).toEqual(["default", "work"]);
    expect(ids({ discord: { accounts: work } }, "discord", { DISCORD_BOT_TOKEN: "d.env" })).toEqual(["default", "work"]);
    expect(ids({ discord: { accounts: work } }, "discord", { TELEGRAM_BOT_TOKEN: "1:env" })).toEqual(["work"]);
    expect(ids({ slack: { botToken: "xoxb-top", accounts: work } }, "slack")).toEqual(["work"]);
    expect(ids({ slack: { botToken: "xoxb-top", appToken: "xapp-top", accounts: work } }, "slack")).toEqual(["default", "work"]);
    expect(ids({ slack: { botToken: "xoxb-top", accounts: work } }, "slack", { SLACK_APP_TOKEN: "xapp-env" })).toEqual(["default", "work"]);
    expect(ids({ slack: { mode: "http", botToken: "xoxb-top", signingSecret: "s", accounts: work } }, "slack")).toEqual(["default", "work"]);
    expect(ids({ slack: { mode: "http", botToken: "xoxb-top", appToken: "xapp-top", accounts: work } }, "slack")).toEqual(["work"]);
  });

  it("of the accounts that would run the top-level bot (no token of their own), only default, else the first, starts", () => {
    const accounts = (channels: Record<string, unknown>) => resolveChannelAccounts(validateConfig({ channels }, {}).config, "telegram", {}).map((a) => [a.accountId, a.problem]);
    const work = 'channels.telegram.accounts.work sets no botToken or tokenFile, so it would run the same bot as the account "default" (the top-level botToken or tokenFile)';
    expect(accounts({ telegram: { botToken: "1:top", accounts: { work: { dmPolicy: "open" }, home: { tokenFile: "/run/home" } } } })).toEqual([
      ["default", undefined],
      ["home", undefined],
      ["work", `${work}; give it its own botToken or tokenFile`],
    ]);
    expect(accounts({ telegram: { botToken: "1:top", accounts: { work: {}, default: {} } } })).toEqual([
      ["default", undefined],
      ["work", `${work}; give it its own botToken or tokenFile`],
    ]);
    expect(accounts({ telegram: { botToken: "1:top", accounts: { work: {}, home: {} } } })[1]).toEqual(["home", expect.stringContaining('as the account "default"')]);
    expect(accounts({ telegram: { accounts: { work: {}, home: {} } } })).toEqual([
      ["home", undefined],
      ["work", undefined],
    ]);
  });

  it("accounts are listed by id, as OpenClaw sorts them; the first by id is the fallback default and the owner of an inherited bot", () => {
    const listed = (telegram: Record<string, unknown>) => {
      const { config } = validateConfig({ channels: { telegram } }, {});
      return { ids: resolveChannelAccounts(config, "telegram", {}).map((a) => [a.accountId, a.problem]), fallback: defaultAccountId(config, "telegram") };
    };
    expect(listed({ accounts: { zeta: { botToken: "1:z" }, Alpha: { botToken: "2:a" } } })).toEqual({
      ids: [
        ["alpha", undefined],
        ["zeta", undefined],
      ],
      fallback: "alpha",
    });
    expect(listed({ botToken: "1:top", accounts: { zeta: { botToken: "2:z" }, alpha: { botToken: "3:a" } } }).ids.map(([id]) => id)).toEqual(["alpha", "default", "zeta"]);
    expect(listed({ botToken: "1:top", accounts: { zeta: { botToken: "2:z" }, alpha: { botToken: "3:a" } } }).fallback).toBe("default");
    expect(listed({ botToken: "1:top", accounts: { default: { botToken: "2:d" }, zeta: {}, beta: {} } }).ids).toEqual([
      ["beta", undefined],
      ["default", undefined],
      [
        "zeta",
        'channels.telegram.accounts.zeta sets no botToken or tokenFile, so it would run the same bot as the account "beta" (the top-level botToken or tokenFile); give it its own botToken or tokenFile',
      ],
    ]);
  });

  it('defaultAccount and bindings may name the top-level "default" account beside accounts', () => {
    const { warnings } = validateConfig(
      {
        channels: { telegram: { botToken: "1:top", defaultAccount: "default", accounts: { work: { botToken: "2:work" } } } },
        bindings: [
          { agentId: "main", match: { channel: "telegram" } },
          { agentId: "main", match: { channel: "telegram", accountId: "default" } },
        ],
      },
      {},
    );
    expect(warnings).toEqual([]);
  });

  it("channels.defaults.groupPolicy is the policy of a channel and account that set none, and is no channel itself", () => {
    const { config, warnings } = validateConfig(
      {
        channels: {
          defaults: { groupPolicy: "open" },
          telegram: { botToken: "1:a", accounts: { strict: { botToken: "2:b", groupPolicy: "disabled" } } },
          discord: { token: "d", groupPolicy: "allowlist" },
        },
      },
      {},
    );
    expect(warnings).toEqual([]);
    expect(resolveChannelAccounts(config, "telegram").map((a) => [a.accountId, a.config.groupPolicy])).toEqual([
      ["default", "open"],
      ["strict", "disabled"],
    ]);
    expect(resolveChannelAccounts(config, "discord")[0]!.config.groupPolicy).toBe("allowlist");
    expect(anyChannelConfigured(validateConfig({ channels: { defaults: { groupPolicy: "open" } } }, {}).config)).toBe(false);
  });
});
