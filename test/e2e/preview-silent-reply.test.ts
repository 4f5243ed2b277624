import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startChannelFakes, type ChannelFakes } from "../helpers/channel-fakes.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, waitUntil } from "../helpers/reliability.js";

/**
 * `streaming.mode: partial` posts a draft while the model writes. When the finished reply is
 * silent (NO_REPLY, a run stopped with /stop), no draft may stay in the chat as if it were an
 * answer: Telegram, Discord and Slack each delete it.
 */

const OWNERS = { telegram: "111", discord: "100000000000000111", slack: "U101" };
/** The owners' direct chats with the bot. */
const DM = { telegram: 111, discord: "100000000000000711", slack: "D101" };
const STREAMING = { mode: "partial", throttleMs: 250 };
/** A reply the model writes slowly enough for the user to stop it while its draft shows. */
const SLOW_ANSWER = { text: "A long answer that is still being written when the user stops it.", chunkDelayMs: 3_000 };

let model: FakeModelServer;
let fakes: ChannelFakes | undefined;
let gw: GatewayProcess | undefined;

/** A gateway on the three fake platforms, each account streaming its drafts. */
async function start(): Promise<{ gw: GatewayProcess; fakes: ChannelFakes }> {
  fakes = await startChannelFakes({ discordBotId: "100000000000000800" });
  const channels = Object.fromEntries(Object.entries(fakes.config(OWNERS)).map(([name, block]) => [name, { ...(block as object), streaming: STREAMING }]));
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels }) } });
  await fakes.connected(gw);
  return { gw, fakes };
}

/** The delivery ledger recorded that a reply was not sent (suppressed), with this reason. */
function suppressedInLedger(stateDir: string, reason: string): boolean {
  const file = path.join(stateDir, "channels", "delivery-ledger.jsonl");
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : [];
  return lines.some((line) => line.includes('"op":"finish"') && line.includes('"state":"suppressed"') && line.includes(reason));
}

beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await model.close();
});
afterEach(async () => {
  await gw?.stop("SIGKILL");
  await fakes?.close();
  gw = undefined;
  fakes = undefined;
  model.dropConnections();
  model.reset();
});

describe("a streamed draft whose reply turns out silent", () => {
  it("Telegram: NO_REPLY streamed slowly leaves nothing in the chat", async () => {
    const { gw, fakes } = await start();
    const { telegram } = fakes;
    model.setResponder(() => ({ text: "NO_REPLY", chunkDelayMs: 400 }));
    telegram.pushMessage({ chatId: DM.telegram, fromId: DM.telegram, text: "nothing to say?", messageId: 1 });
    await waitUntil(() => suppressedInLedger(gw.stateDir, "NO_REPLY"), 15_000, "the silent reply recorded");
    await telegram.waitFor(() => telegram.shown(DM.telegram).length === 0, 5_000);
    expect(telegram.shown(DM.telegram)).toEqual([]);
  });

  it("Telegram: /stop while the draft shows takes the draft out, only the stop notice stays", async () => {
    const { gw, fakes } = await start();
    const { telegram } = fakes;
    model.setResponder(() => SLOW_ANSWER);
    telegram.pushMessage({ chatId: DM.telegram, fromId: DM.telegram, text: "tell me everything", messageId: 1 });
    await waitUntil(() => chatRequests(model).length === 1, 10_000, "the model request");
    await telegram.waitFor(() => telegram.shown(DM.telegram).length === 1, 10_000);
    telegram.pushMessage({ chatId: DM.telegram, fromId: DM.telegram, text: "/stop", messageId: 2 });
    await waitUntil(() => suppressedInLedger(gw.stateDir, "run aborted"), 15_000, "the stopped reply recorded");
    await telegram.waitFor(() => telegram.shown(DM.telegram).join() === "⏹ Stopped.", 5_000);
    expect(telegram.shown(DM.telegram)).toEqual(["⏹ Stopped."]);
  });

  it("Discord: /stop while the draft shows deletes the draft", async () => {
    const { discord } = (await start()).fakes;
    model.setResponder(() => SLOW_ANSWER);
    discord.pushMessage({ channelId: DM.discord, authorId: OWNERS.discord, authorName: "Owner", content: "tell me everything" });
    await waitUntil(() => discord.messages(DM.discord).length === 1, 10_000, "the draft");
    const draft = discord.messages(DM.discord)[0]!;
    discord.pushMessage({ channelId: DM.discord, authorId: OWNERS.discord, authorName: "Owner", content: "/stop" });
    await waitUntil(() => discord.deletedMessageIds.includes(draft.id), 10_000, "the draft deleted");
    await waitUntil(() => discord.messages(DM.discord).length === 2, 10_000, "the stop notice");
    expect(discord.messages(DM.discord).map((m) => m.content)).toEqual([draft.content, "⏹ Stopped."]);
  });

  it("Slack: /stop while the draft shows deletes the draft", async () => {
    const { slack } = (await start()).fakes;
    const inDm = () => slack.posted.filter((p) => p.channel === DM.slack);
    model.setResponder(() => SLOW_ANSWER);
    slack.pushMessage({ channel: DM.slack, channelType: "im", user: OWNERS.slack, text: "tell me everything" });
    await waitUntil(() => inDm().length === 1, 10_000, "the draft");
    const draftTs = slack.postedTs[slack.posted.findIndex((p) => p.channel === DM.slack)]!;
    slack.pushMessage({ channel: DM.slack, channelType: "im", user: OWNERS.slack, text: "/stop" });
    await waitUntil(() => slack.deletedTs.includes(draftTs), 10_000, "the draft deleted");
    await waitUntil(() => inDm().length === 2, 10_000, "the stop notice");
    expect(inDm()[1]!.text).toContain("Stopped.");
  });
});
