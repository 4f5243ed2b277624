import { afterEach, beforeEach, describe, expect, it } from "vitest";
import pino from "pino";
import { SlackDirectory } from "../../../../extensions/slack/directory.js";
import { createBoltLogger, deliveryClientOptions, loadBolt } from "../../../../extensions/slack/slack-sdk.js";
import { readThreadHistory, type SlackThreadHistoryDeps } from "../../../../extensions/slack/thread-history.js";
import { startFakeSlack, type FakeSlack } from "../../../fakes/slack-server.js";

describe("Slack thread history (conversations.replies)", () => {
  let fake: FakeSlack;
  let deps: SlackThreadHistoryDeps;
  let logged: string[];

  beforeEach(async () => {
    fake = await startFakeSlack();
    logged = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => logged.push(line) });
    const { webApi, LogLevel } = await loadBolt();
    const api = new webApi.WebClient(fake.botToken, deliveryClientOptions(fake.apiUrl, createBoltLogger(logger, LogLevel, [fake.botToken])));
    deps = { api, directory: new SlackDirectory(api, logger, [fake.botToken]), logger, secrets: [fake.botToken] };
  });

  afterEach(async () => {
    fake.release();
    await fake.close();
  });

  const say = (user: string, text: string, threadTs?: string) => fake.pushMessage({ channel: "C1", user, text, deliver: false, ...(threadTs ? { threadTs } : {}) }).ts;

  it("reads the root and the replies before the message, oldest first, the latest `limit`, the bot's own posts marked", async () => {
    const root = say("U1", "root");
    say("U2", "one", root);
    await deps.api.chat.postMessage({ channel: "C1", text: "bot says", thread_ts: root });
    say("U3", "three", root);
    const current = say("U4", "current", root);
    say("U5", "after", root);
    say("U6", "elsewhere");

    const all = await readThreadHistory(deps, "C1", root, 10, current);
    expect(all.map((m) => m.text)).toEqual(["root", "one", "bot says", "three"]);
    expect(all[0]).toEqual({ messageId: root, senderId: "U1", senderName: "user-u1", text: "root" });
    expect(all[2]).toMatchObject({ senderId: fake.botUserId, isBot: true });

    expect((await readThreadHistory(deps, "C1", root, 2, current)).map((m) => m.text)).toEqual(["bot says", "three"]);
  });

  it("pages through a long thread and keeps its latest messages", async () => {
    const root = say("U1", "root");
    for (let i = 1; i <= 250; i++) say("U2", `reply ${i}`, root);
    const current = say("U3", "current", root);
    const got = await readThreadHistory(deps, "C1", root, 3, current);
    expect(got.map((m) => m.text)).toEqual(["reply 248", "reply 249", "reply 250"]);
    expect(fake.calls.filter((c) => c.method === "conversations.replies").length).toBe(2);
  });

  it("a refusal (missing_scope) is logged naming the scope and reads as no history", async () => {
    const root = say("U1", "root");
    const current = say("U2", "current", root);
    fake.failNext("conversations.replies", { error: "missing_scope" });
    expect(await readThreadHistory(deps, "C1", root, 5, current)).toEqual([]);
    expect(logged.join("\n")).toMatch(/conversations\.replies failed: missing_scope.*channels:history/);
  });

  it("a sender whose name does not come in time is shown without it", async () => {
    const root = say("U7", "root");
    const current = say("U2", "current", root);
    fake.hangNext("users.info");
    const got = await readThreadHistory(deps, "C1", root, 5, current);
    expect(got).toEqual([{ messageId: root, senderId: "U7", text: "root" }]);
  }, 10_000);
});
