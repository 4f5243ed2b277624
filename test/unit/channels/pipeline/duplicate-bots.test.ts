import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { resolveChannelAccounts, type ChannelAccountConfig } from "../../../../src/channels/config/channel-accounts.js";
import { duplicateBotProblems } from "../../../../src/channels/config/duplicate-bots.js";
import discordPlugin from "../../../../extensions/discord/index.js";
import telegramPlugin from "../../../../extensions/telegram/index.js";

/** The planning of accounts that share one bot, with the plugins' own token resolution. */
function plan(channels: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Record<string, string> {
  const { config } = validateConfig({ channels }, {});
  const specs = (["telegram", "discord"] as const).flatMap((c) => resolveChannelAccounts(config, c, env));
  const plugins = { telegram: telegramPlugin, discord: discordPlugin } as Record<string, typeof telegramPlugin>;
  const tokenOf = (spec: ChannelAccountConfig) => plugins[spec.channel]?.botToken(spec.config, env, spec.accountId);
  return Object.fromEntries(duplicateBotProblems(config, specs, tokenOf));
}

const refused = (where: string, owner: string, keys = "botToken (or tokenFile)") =>
  `${where} has the same bot token as the account "${owner}", which runs that bot (two connections to one bot take each other's updates); give ${where} its own ${keys}, or remove it`;

describe("accounts that resolve to the same bot token", () => {
  it("the first by account id runs the bot; every later one with the same token is refused", () => {
    expect(plan({ telegram: { accounts: { work: { botToken: "1:abc" }, alpha: { botToken: "1:abc" }, zeta: { botToken: "1:abc" }, own: { botToken: "2:own" } } } })).toEqual({
      "telegram|work": refused("channels.telegram.accounts.work", "alpha"),
      "telegram|zeta": refused("channels.telegram.accounts.zeta", "alpha"),
    });
  });

  it("compares tokens after tokenFile and the environment are read, never quoting them", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dup-token-"));
    const file = path.join(dir, "token");
    fs.writeFileSync(file, "1:abc\n");
    const fromFile = plan({ telegram: { accounts: { home: { botToken: "1:abc" }, work: { tokenFile: file } } } });
    expect(fromFile).toEqual({ "telegram|work": refused("channels.telegram.accounts.work", "home") });
    expect(JSON.stringify(fromFile)).not.toContain("1:abc");
    // TELEGRAM_BOT_TOKEN makes the top-level account "default", which sorts after "alpha".
    expect(plan({ telegram: { accounts: { alpha: { botToken: "1:abc" } } } }, { TELEGRAM_BOT_TOKEN: "1:abc" })).toEqual({
      "telegram|default": refused("channels.telegram", "alpha"),
    });
  });

  it("a disabled account, or one already refused, holds no bot; the same string on two channels is two bots", () => {
    expect(plan({ telegram: { accounts: { alpha: { botToken: "1:abc", enabled: false }, work: { botToken: "1:abc" } } } })).toEqual({});
    expect(plan({ telegram: { botToken: "1:abc", accounts: { alpha: {}, work: { botToken: "1:abc" } } } })).toEqual({
      "telegram|work": refused("channels.telegram.accounts.work", "default"),
    });
    expect(plan({ telegram: { accounts: { a: { botToken: "1:abc" } } }, discord: { accounts: { a: { token: "1:abc" }, b: { token: "1:abc" } } } })).toEqual({
      "discord|b": refused("channels.discord.accounts.b", "a", "token"),
    });
  });
});
