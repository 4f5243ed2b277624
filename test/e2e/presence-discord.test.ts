import { describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * The Discord bot's presence (`status`, `activity`, `activityType`, `activityUrl`) with the real
 * discord.js client against a fake Discord: what the bot's IDENTIFY says; a Streaming activity
 * without its URL keeps the account from starting, naming the fix.
 */
const BOT = "100000000000000810";

async function identifyWith(discordExtra: Record<string, unknown>): Promise<unknown> {
  const model = await startFakeModelServer();
  const discord = await startFakeDiscord({ botId: BOT, botName: "clawbot", guilds: [] });
  const stateDir = makeTempDir();
  const discordConfig = { token: discord.token, restApiUrl: discord.restUrl, ...discordExtra };
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { discord: discordConfig } }) } });
  try {
    await gw.waitForOutput(/channel account started/, 10_000);
    await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
    return discord.lastIdentifyPresence;
  } finally {
    await gw.stop();
    await discord.close();
    await model.close();
  }
}

describe("Discord presence", { timeout: 60_000 }, () => {
  it("a status and a custom status text (the default activity type)", async () => {
    expect(await identifyWith({ status: "idle", activity: "Focus time" })).toMatchObject({
      status: "idle",
      activities: [{ name: "Custom Status", type: 4, state: "Focus time" }],
    });
  });

  it("a Streaming activity with its URL; no presence keys send Discord's default", async () => {
    expect(await identifyWith({ activity: "Live coding", activityType: 1, activityUrl: "https://twitch.tv/openclaw" })).toMatchObject({
      activities: [{ name: "Live coding", type: 1, url: "https://twitch.tv/openclaw" }],
    });
    const plain = (await identifyWith({})) as { activities?: unknown[]; status?: string } | undefined;
    expect(plain?.activities ?? []).toEqual([]);
    expect(plain?.status ?? "online").toBe("online");
  });

  it("Streaming without a URL: the account does not start, and the problem names the fix", async () => {
    const model = await startFakeModelServer();
    const stateDir = makeTempDir();
    const discordConfig = { token: "fake-token", restApiUrl: "http://127.0.0.1:9/api", activity: "Live coding", activityType: 1 };
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { discord: discordConfig } }) } });
    try {
      await gw.waitForOutput(/channel account not started/, 10_000);
      const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
      const status = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
      expect(status.channelAccounts.discord[0].problems).toEqual(["channels.discord.activityType 1 (Streaming) needs activityUrl (the stream's URL)"]);
    } finally {
      await gw.stop();
      await model.close();
    }
  });
});
