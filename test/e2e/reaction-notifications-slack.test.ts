import { beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../fakes/slack-server.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { useFakeSlackGateways } from "../helpers/fake-slack-gateways.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { waitUntilGateway } from "../helpers/reliability.js";

/**
 * Slack reactions through a real gateway and @slack/bolt: `reaction_added` (Socket Mode or HTTP
 * Events) becomes a `System:` line in front of the next message of the session the chat's messages
 * go to (OpenClaw's wording, the emoji as its shortcode), once. `own` (the default) reports
 * reactions to the bot's messages by people who may talk to the bot there; `allowlist` those by
 * the people in `reactionAllowlist`.
 */

/** One channel per test: the fake Slack (and what the bot posted) is shared by the file's tests. */
const ROOM = "C0ROOM";
const PLANS = "C0PLANS";
const THREADS = "C0THREADS";
const OWNER = "U0OWNER";
const FRIEND = "U0FRIEND";
const BOB = "U0BOB";
const STRANGER = "U0STRANGER";
const SIGNING_SECRET = "fake-signing-secret";
const SYSTEM_LINE = /^System: \[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} GMT[^\]]*\] /;

const servers = useFakeServers();
const slackGateways = useFakeSlackGateways(servers);
let slack: FakeSlack;
beforeAll(() => {
  slack = slackGateways.slack;
});

function startSlackGateway(slackConfig: Record<string, unknown>): Promise<GatewayProcess> {
  servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req).split("\n").at(-1)}` }));
  // Debug lines: the Slack account logs each reaction it has handed over, which the test waits for.
  return slackGateways.start(slackConfig, { debugLog: true });
}

/** The gateway is done with `count` reactions (the account logs each once `onReaction` settled). */
const reactionsHandled = (gw: GatewayProcess, count: number) =>
  waitUntilGateway(gw, () => (gw.output().match(/Slack reaction handed over/g) ?? []).length >= count, 15_000, `${count} reactions handled`);

const repliesIn = (channel: string) => slack.posted.filter((p) => p.channel === channel);
const mention = (text: string) => `<@${slack.botUserId}> ${text}`;

describe("Slack reaction notifications", { timeout: 90_000 }, () => {
  it("own (default, Socket Mode): the owner's reaction to the bot's reply reaches the next message once; others do not", async () => {
    const gw = await startSlackGateway({ appToken: slack.appToken, channels: { [ROOM]: { users: [OWNER] } } });

    slack.pushMessage({ channel: ROOM, channelType: "channel", user: OWNER, text: mention("hello") });
    await waitUntilGateway(gw, () => repliesIn(ROOM).length === 1, 15_000, "the first reply");
    const botReply = slack.lastPostedTs(ROOM)!;
    // Someone else's message in the room (no mention: not answered).
    const bobs = slack.pushMessage({ channel: ROOM, channelType: "channel", user: BOB, text: "my plan" });

    slack.pushReaction({ channel: ROOM, ts: botReply, user: OWNER, reaction: "thumbsup" });
    // Not the bot's message: ignored under `own`.
    slack.pushReaction({ channel: ROOM, ts: bobs.ts, user: OWNER, reaction: "tada" });
    // Someone the room does not admit: ignored.
    slack.pushReaction({ channel: ROOM, ts: botReply, user: STRANGER, reaction: "thumbsdown" });
    // The bot's own (status) reaction is not even handed over.
    slack.pushReaction({ channel: ROOM, ts: botReply, user: slack.botUserId, reaction: "eyes" });
    await reactionsHandled(gw, 3);

    slack.pushMessage({ channel: ROOM, channelType: "channel", user: OWNER, text: mention("what did I think?") });
    await waitUntilGateway(gw, () => repliesIn(ROOM).length === 2, 15_000, "the second reply");
    slack.pushMessage({ channel: ROOM, channelType: "channel", user: OWNER, text: mention("and now?") });
    await waitUntilGateway(gw, () => repliesIn(ROOM).length === 3, 15_000, "the third reply");

    const prompts = chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));
    expect(prompts).toHaveLength(3);
    const lines = prompts[1]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`Slack reaction added: :thumbsup: by user-u0owner \\(@u0owner\\) on msg ${botReply.replace(".", "\\.")}$`));
    expect(lines.slice(1)).toEqual(["", expect.stringContaining("what did I think?")]);
    for (const other of [":tada:", ":thumbsdown:", ":eyes:"]) expect(prompts[1]).not.toContain(other);
    // Carried once: the next message has no notice.
    expect(prompts[2]).not.toContain("System:");
    expect(prompts[2]).toContain("and now?");
    // A reaction asks for no answer.
    expect(repliesIn(ROOM)).toHaveLength(3);
  });

  it("allowlist (HTTP Events): reactions by the people in reactionAllowlist are reported, on anyone's message; others' are not", async () => {
    const gw = await startSlackGateway({
      mode: "http",
      signingSecret: SIGNING_SECRET,
      reactionNotifications: "allowlist",
      reactionAllowlist: [OWNER],
      // FRIEND may talk to the bot here: only the reaction allowlist leaves their reaction out.
      channels: { [PLANS]: { users: [OWNER, FRIEND] } },
    });
    const post = async (event: Record<string, unknown>) => {
      const body = slack.eventCallback(event);
      const res = await fetch(`${gw.httpUrl}/slack/events`, { method: "POST", headers: slack.signEvent(body, SIGNING_SECRET), body });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    };
    const message = (user: string, text: string, ts: string) => ({ type: "message", channel: PLANS, channel_type: "channel", user, text, ts, event_ts: ts, team: slack.teamId });
    const now = Math.floor(Date.now() / 1000);
    const bobsTs = `${now - 60}.000100`;

    await post(message(BOB, "my plan", bobsTs));
    await post(slack.reactionEvent({ channel: PLANS, ts: bobsTs, user: OWNER, reaction: "white_check_mark", itemUser: BOB }));
    await post(slack.reactionEvent({ channel: PLANS, ts: bobsTs, user: FRIEND, reaction: "x", itemUser: BOB }));
    await reactionsHandled(gw, 2);

    await post(message(OWNER, mention("what do we think of the plan?"), `${now}.000200`));
    await waitUntilGateway(gw, () => repliesIn(PLANS).length === 1, 15_000, "the reply");

    const prompts = chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));
    expect(prompts).toHaveLength(1);
    const lines = prompts[0]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`Slack reaction added: :white_check_mark: by user-u0owner \\(@u0owner\\) on msg ${bobsTs.replace(".", "\\.")}$`));
    expect(lines.slice(1)).toEqual(["", expect.stringContaining("what do we think of the plan?")]);
    expect(prompts[0]).not.toContain(":x:");
  });

  it("a reaction to the bot's reply in a thread goes to the thread's session, not the channel's", async () => {
    const gw = await startSlackGateway({ appToken: slack.appToken, channels: { [THREADS]: { users: [OWNER] } } });
    const root = `${Math.floor(Date.now() / 1000) - 60}.000100`;
    slack.pushMessage({ channel: THREADS, channelType: "channel", user: OWNER, text: mention("in a thread"), threadTs: root });
    await waitUntilGateway(gw, () => repliesIn(THREADS).length === 1, 15_000, "the thread reply");
    expect(repliesIn(THREADS)[0]).toMatchObject({ thread_ts: root });
    const botReply = slack.lastPostedTs(THREADS)!;

    // Slack's reaction_added names no thread: the account remembers where it posted the reply.
    slack.pushReaction({ channel: THREADS, ts: botReply, user: OWNER, reaction: "heart" });
    await reactionsHandled(gw, 1);

    slack.pushMessage({ channel: THREADS, channelType: "channel", user: OWNER, text: mention("top level") });
    await waitUntilGateway(gw, () => repliesIn(THREADS).length === 2, 15_000, "the channel reply");
    slack.pushMessage({ channel: THREADS, channelType: "channel", user: OWNER, text: mention("back in the thread"), threadTs: root });
    await waitUntilGateway(gw, () => repliesIn(THREADS).length === 3, 15_000, "the second thread reply");

    const prompts = chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));
    expect(prompts).toHaveLength(3);
    expect(prompts[1]).not.toContain("System:");
    const lines = prompts[2]!.split("\n");
    expect(lines[0]).toMatch(SYSTEM_LINE);
    expect(lines[0]).toMatch(new RegExp(`Slack reaction added: :heart: by user-u0owner \\(@u0owner\\) on msg ${botReply.replace(".", "\\.")}$`));
    expect(lines.slice(1)).toEqual(["", expect.stringContaining("back in the thread")]);
  });
});
