import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import telegramPlugin from "../../../../extensions/telegram/index.js";
import { startFakeTelegram, type FakeTelegram } from "../../../fakes/telegram-server.js";
import { accountFactory, createStubContext, fakeConfig } from "./helpers.js";

const TOKEN = "123:abc_DEF-456";

describe("telegram checkAccountConfig", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "telegram-config-"));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("asks for a token when there is none", () => {
    expect(telegramPlugin.checkAccountConfig({}, {})).toEqual(["channels.telegram: no bot token (set botToken, tokenFile or TELEGRAM_BOT_TOKEN)"]);
  });

  it("accepts botToken, tokenFile or TELEGRAM_BOT_TOKEN", () => {
    const file = path.join(dir, "token");
    fs.writeFileSync(file, `${TOKEN}\n`);
    expect(telegramPlugin.checkAccountConfig({ botToken: TOKEN }, {})).toEqual([]);
    expect(telegramPlugin.checkAccountConfig({ tokenFile: file }, {})).toEqual([]);
    expect(telegramPlugin.checkAccountConfig({}, { TELEGRAM_BOT_TOKEN: TOKEN })).toEqual([]);
  });

  it("counts TELEGRAM_BOT_TOKEN for the default account only", () => {
    const env = { TELEGRAM_BOT_TOKEN: TOKEN };
    expect(telegramPlugin.checkAccountConfig({}, env, "default")).toEqual([]);
    expect(telegramPlugin.checkAccountConfig({}, env, "work")).toEqual([
      'channels.telegram: no bot token (set botToken, tokenFile or TELEGRAM_BOT_TOKEN); TELEGRAM_BOT_TOKEN only serves the default account, not "work"',
    ]);
    expect(telegramPlugin.checkAccountConfig({}, {}, "work")).toEqual(["channels.telegram: no bot token (set botToken, tokenFile or TELEGRAM_BOT_TOKEN)"]);
  });

  it("names an unreadable or empty tokenFile, which wins over botToken", () => {
    const missing = path.join(dir, "missing");
    expect(telegramPlugin.checkAccountConfig({ tokenFile: missing, botToken: TOKEN }, {})).toEqual([`channels.telegram: tokenFile ${missing} cannot be read (ENOENT)`]);
    const empty = path.join(dir, "empty");
    fs.writeFileSync(empty, "\n");
    expect(telegramPlugin.checkAccountConfig({ tokenFile: empty }, {})).toEqual([`channels.telegram: tokenFile ${empty} is empty`]);
  });

  it("spots a value that is not a bot token without repeating it", () => {
    const problems = telegramPlugin.checkAccountConfig({ botToken: "xoxb-slack-token" }, {});
    expect(problems).toEqual(["channels.telegram: botToken does not look like a bot token from @BotFather (<digits>:<secret>)"]);
  });
});

describe("telegram token sources at start", () => {
  let fake: FakeTelegram;
  const accounts = accountFactory();
  beforeEach(async () => {
    fake = await startFakeTelegram();
  });
  afterEach(async () => {
    await accounts.cleanup();
    await fake.close();
  });

  it("uses TELEGRAM_BOT_TOKEN for the default account only", async () => {
    const env = { TELEGRAM_BOT_TOKEN: fake.token };
    const { account: defaultAccount, status } = accounts.create({ apiRoot: fake.url, pollingTimeoutSeconds: 1 }, "default", env);
    await defaultAccount.start();
    expect(status.botId).toBe(String(fake.botId));
    await defaultAccount.stop();

    const { account: other } = accounts.create({ apiRoot: fake.url }, "work", env);
    await expect(other.start()).rejects.toThrow('TELEGRAM_BOT_TOKEN only serves the default account, not "work"');
  });

  it("prefers tokenFile over botToken", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "telegram-token-"));
    try {
      const file = path.join(dir, "token");
      fs.writeFileSync(file, fake.token);
      const { account, status } = accounts.create(fakeConfig(fake, { tokenFile: file, botToken: "1:someone-else" }));
      await account.start();
      expect(status.botId).toBe(String(fake.botId));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("telegram resolveTarget and describeSender", () => {
  const account = telegramPlugin.createAccount(createStubContext({ botToken: TOKEN }).context, {});

  it.each([
    ["123", { chatId: "123" }],
    ["-100123", { chatId: "-100123" }],
    ["@my_channel", { chatId: "@my_channel" }],
    ["-100123:topic:42", { chatId: "-100123", threadId: "42" }],
    ["telegram:-100123", { chatId: "-100123" }],
    ["tg:@my_channel", { chatId: "@my_channel" }],
    ["  TG:55:topic:1 ", { chatId: "55", threadId: "1" }],
  ])("parses %s", async (raw, expected) => {
    expect(await account.resolveTarget(raw)).toEqual(expected);
  });

  it.each(["", "abc", "@x", "123:topic:", "123:thread:4", "discord:123", "12 34"])("refuses %j with a message listing the accepted forms", async (raw) => {
    await expect(account.resolveTarget(raw)).rejects.toThrow(/is not a chat id \(123, -100123\), an @username, or <chatId>:topic:<topicId>/);
  });

  it("describes a sender for the pairing reply", () => {
    expect(account.describeSender("987")).toBe("Your Telegram user id: 987");
  });

  it("exposes the plugin's identity and default limits", () => {
    expect(telegramPlugin).toMatchObject({ id: "telegram", label: "Telegram", defaultLimits: { textChunkLimit: 4000 } });
  });
});
