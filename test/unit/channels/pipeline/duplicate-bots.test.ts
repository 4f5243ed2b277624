import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { resolveChannelAccounts, type ChannelAccountConfig } from "../../../../src/channels/config/channel-accounts.js";
import { duplicateBotProblems, duplicateEventStreamProblems } from "../../../../src/channels/config/duplicate-bots.js";
import discordPlugin from "../../../../extensions/discord/index.js";
import slackPlugin from "../../../../extensions/slack/index.js";
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

/** Slack's planning: the bot rule first, then the app-token rule on what it left, with the plugin's own resolution. */
function planSlack(slack: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Record<string, string> {
  const { config } = validateConfig({ channels: { slack } }, {});
  const specs = resolveChannelAccounts(config, "slack", env);
  const bots = duplicateBotProblems(config, specs, (spec) => slackPlugin.botToken(spec.config, env, spec.accountId));
  const planned = specs.map((spec) => (bots.has(`slack|${spec.accountId}`) ? { ...spec, problem: bots.get(`slack|${spec.accountId}`)! } : spec));
  const streams = duplicateEventStreamProblems(config, planned, (spec) => slackPlugin.eventStreamToken?.(spec.config, env, spec.accountId));
  return Object.fromEntries([...bots, ...streams]);
}

const sharedApp = (where: string, owner: string) =>
  `${where} has the same appToken as the account "${owner}", which opens the Slack app's Socket Mode connection with it (Slack gives each of an app's events to one of its connections, so each account would miss events meant for the other); give ${where} the appToken of a Slack app of its own, or remove it`;

describe("Slack accounts in Socket Mode that share an app token", () => {
  it("the first by account id keeps the app token; every later one is refused, never quoting it", () => {
    const problems = planSlack({
      appToken: "xapp-1-A1-shared",
      accounts: { work: { botToken: "xoxb-w" }, alpha: { botToken: "xoxb-a" }, own: { botToken: "xoxb-o", appToken: "xapp-1-A2-own" } },
    });
    expect(problems).toEqual({ "slack|work": sharedApp("channels.slack.accounts.work", "alpha") });
    expect(JSON.stringify(problems)).not.toContain("xapp-1-A1-shared");
  });

  it("SLACK_APP_TOKEN counts for the default account only; an HTTP-mode account opens no socket", () => {
    const env = { SLACK_BOT_TOKEN: "xoxb-d", SLACK_APP_TOKEN: "xapp-1-A1-shared" };
    expect(planSlack({ accounts: { zeta: { botToken: "xoxb-z", appToken: "xapp-1-A1-shared" } } }, env)).toEqual({
      "slack|zeta": sharedApp("channels.slack.accounts.zeta", "default"),
    });
    expect(planSlack({ accounts: { zeta: { botToken: "xoxb-z" } } }, env)).toEqual({});
    expect(planSlack({ appToken: "xapp-1-A1-shared", accounts: { alpha: { botToken: "xoxb-a" }, work: { botToken: "xoxb-w", mode: "http", signingSecret: "s" } } })).toEqual({});
  });

  it("an account refused for its bot token, or disabled, holds no app token", () => {
    expect(planSlack({ appToken: "xapp-1-A1-shared", accounts: { alpha: { botToken: "xoxb-a" }, beta: { botToken: "xoxb-a" }, gamma: { botToken: "xoxb-g" } } })).toEqual({
      "slack|beta": refused("channels.slack.accounts.beta", "alpha", "botToken"),
      "slack|gamma": sharedApp("channels.slack.accounts.gamma", "alpha"),
    });
    expect(planSlack({ appToken: "xapp-1-A1-shared", accounts: { alpha: { botToken: "xoxb-a", enabled: false }, work: { botToken: "xoxb-w" } } })).toEqual({});
  });
});
