import { afterEach, beforeEach, describe, expect, it } from "vitest";
import pino from "pino";
import { SlackDirectory } from "../../../../extensions/slack/directory.js";
import { createBoltLogger, deliveryClientOptions, loadBolt } from "../../../../extensions/slack/slack-sdk.js";
import { startFakeSlack, type FakeSlack } from "../../../fakes/slack-server.js";

const TEN_MINUTES_MS = 10 * 60_000;

describe("SlackDirectory", () => {
  let fake: FakeSlack;
  let clock: number;
  let directory: SlackDirectory;

  beforeEach(async () => {
    fake = await startFakeSlack();
    clock = 1_000;
    const { webApi, LogLevel } = await loadBolt();
    const logger = pino({ level: "silent" });
    const boltLogger = createBoltLogger(logger, LogLevel, [fake.botToken]);
    const api = new webApi.WebClient(fake.botToken, deliveryClientOptions(fake.apiUrl, boltLogger));
    directory = new SlackDirectory(api, logger, [fake.botToken], () => clock);
  });

  afterEach(() => fake.close());

  const lookups = (method: string) => fake.calls.filter((call) => call.method === method).length;

  it("asks Slack once per sender and answers later messages from the cache", async () => {
    expect(await directory.profile("U1")).toEqual({ name: "user-u1", username: "u1" });
    expect(await directory.profile("U1")).toEqual({ name: "user-u1", username: "u1" });
    expect(lookups("users.info")).toBe(1);
  });

  it("says when the sender is a bot user", async () => {
    expect(await directory.profile(fake.botUserId)).toEqual({ name: `user-${fake.botUserId.toLowerCase()}`, username: fake.botUserId.toLowerCase(), isBot: true });
  });

  it("remembers a failed lookup for ten minutes, then asks again", async () => {
    fake.failNext("users.info", { error: "missing_scope" });
    expect(await directory.profile("U1")).toBeUndefined();
    clock += TEN_MINUTES_MS - 1;
    expect(await directory.profile("U1")).toBeUndefined();
    expect(lookups("users.info")).toBe(1);
    clock += 2;
    expect(await directory.profile("U1")).toEqual({ name: "user-u1", username: "u1" });
    expect(lookups("users.info")).toBe(2);
  });

  it("guesses the chat kind from the id when conversations.info fails, and keeps a good answer", async () => {
    fake.failNext("conversations.info", { error: "missing_scope" });
    expect(await directory.chatKind("D0DM")).toBe("direct");
    expect(await directory.chatKind("C0CHAN")).toBe("channel");
    clock += TEN_MINUTES_MS * 10;
    expect(await directory.chatKind("C0CHAN")).toBe("channel");
    expect(lookups("conversations.info")).toBe(2);
  });
});
