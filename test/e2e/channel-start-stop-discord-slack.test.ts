import { afterAll, describe, expect, it } from "vitest";
import { DISCORD_DM, DISCORD_OWNER, type DiscordDmGateway, startDiscordDmGateway, stopDiscordDmGateway } from "../helpers/discord-dm-gateway.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { useFakeSlackGateways } from "../helpers/fake-slack-gateways.js";
import { lastUserText, waitUntilGateway } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * `channels.stop` / `channels.start` on Discord (the real discord.js client against the fake
 * Discord gateway) and Slack Socket Mode (the real @slack/bolt against the fake Slack): stop
 * closes the platform connection and the account shows as stopped; start opens it again and the
 * bot answers.
 */

const STOP_NOTE = "stopped by channels.stop; channels.start (or a gateway restart) starts it again";

async function call(sock: TestSocket, method: string, params: Record<string, unknown>): Promise<Frame> {
  const res = await sock.request(method, params, 30_000);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload as Frame;
}

async function account(sock: TestSocket, channel: string): Promise<Record<string, unknown>> {
  const status = await call(sock, "channels.status", {});
  return ((status as { channelAccounts: Record<string, Frame[]> }).channelAccounts[channel] ?? []).find((a) => a.accountId === "default")!;
}

describe("channels.stop and channels.start on Discord and Slack", () => {
  let discordGateway: DiscordDmGateway | undefined;
  afterAll(async () => {
    if (discordGateway) await stopDiscordDmGateway(discordGateway);
  });

  it("Discord: stop closes the gateway connection; start identifies again and the bot answers a DM", { timeout: 60_000 }, async () => {
    discordGateway = await startDiscordDmGateway();
    const { discord, gw, model } = discordGateway;
    model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      expect(await call(sock, "channels.stop", { channel: "discord" })).toEqual({ channel: "discord", accountId: "default", stopped: true });
      await waitUntilGateway(gw, () => discord.openConnections === 0, 15_000, "the Discord gateway socket to close");
      expect(await account(sock, "discord")).toMatchObject({ running: false, connected: false, lastError: STOP_NOTE });

      const started = await call(sock, "channels.start", { channel: "discord" });
      expect(started).toMatchObject({ channel: "discord", accountId: "default", started: true, outcome: { status: "handed-off" } });
      await waitUntilGateway(gw, () => discord.identifyCount === 2, 15_000, "the second IDENTIFY");
      discord.pushMessage({ channelId: DISCORD_DM, authorId: DISCORD_OWNER, authorName: "Owner", content: "back?" });
      await waitUntilGateway(gw, () => discord.messages(DISCORD_DM).some((m) => String(m.content) === "echo: back?"), 15_000, "the reply after the start");
      expect(await account(sock, "discord")).toMatchObject({ running: true });
    } finally {
      sock.close();
    }
  });

  const servers = useFakeServers();
  const slackGateways = useFakeSlackGateways(servers);

  it("Slack Socket Mode: stop closes the socket; start connects again and the bot answers", { timeout: 60_000 }, async () => {
    const slack = slackGateways.slack;
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    const gw = await slackGateways.start({ appToken: slack.appToken, dmPolicy: "open", allowFrom: ["*"] });
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const socketsBefore = slack.socketConnections;
      expect(await call(sock, "channels.stop", { channel: "slack" })).toEqual({ channel: "slack", accountId: "default", stopped: true });
      await waitUntilGateway(gw, () => slack.openSocketCount === 0, 15_000, "the Socket Mode socket to close");
      expect(await account(sock, "slack")).toMatchObject({ running: false, lastError: STOP_NOTE });

      const started = await call(sock, "channels.start", { channel: "slack" });
      expect(started).toMatchObject({ channel: "slack", accountId: "default", started: true, outcome: { status: "handed-off" } });
      await waitUntilGateway(gw, () => slack.socketConnections > socketsBefore, 15_000, "a new Socket Mode connection");
      slack.pushMessage({ channel: "D0OWNER", channelType: "im", user: "U0OWNER", text: "back?" });
      await waitUntilGateway(gw, () => slack.posted.some((p) => p.channel === "D0OWNER" && p.text === "echo: back?"), 15_000, "the reply after the start");
    } finally {
      sock.close();
    }
  });
});
