import { describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { waitUntil } from "../helpers/reliability.js";

/**
 * `channels.discord.mentionAliases` with the real discord.js client against a fake Discord: a
 * known `@Handle` in the reply goes out as a `<@id>` mention that may ping that user only; code and
 * unknown handles go out as written.
 */

const BOT = "100000000000000800";
const OWNER = "100000000000000111";
const DM = "100000000000000711";
const LEAD = "123456789012345678";

describe("Discord mentionAliases", { timeout: 60_000 }, () => {
  it("a known @handle in the reply becomes a mention of that user, the only one allowed to be pinged", async () => {
    const model = await startFakeModelServer();
    const discord = await startFakeDiscord({ botId: BOT, botName: "clawbot" });
    const stateDir = makeTempDir();
    const discordConfig = { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [OWNER], mentionAliases: { SupportLead: LEAD } };
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels: { discord: discordConfig } }) } });
    try {
      await gw.waitForOutput(/channel account started/, 10_000);
      await waitUntil(() => discord.identifyCount === 1, 10_000, "the Discord IDENTIFY");
      model.setResponder(() => ({ text: "Ask @supportlead about it; @someone else and `@SupportLead` stay as written." }));
      discord.pushMessage({ channelId: DM, authorId: OWNER, authorName: "owner", content: "who handles refunds?" });
      await waitUntil(() => discord.messages(DM).length === 1, 15_000, "the reply");
      const [reply] = discord.messages(DM);
      expect(reply!.content).toBe(`Ask <@${LEAD}> about it; @someone else and \`@SupportLead\` stay as written.`);
      expect(reply!.body.allowed_mentions).toEqual({ parse: [], users: [LEAD], replied_user: false });
    } finally {
      await gw.stop("SIGKILL");
      await discord.close();
      await model.close();
    }
  });
});
