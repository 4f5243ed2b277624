import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";

/**
 * Slack's `typingReaction` through a real gateway and the Slack SDK: the configured reaction is on
 * the message being answered while the model works, and taken back once the reply is out.
 */
const servers = useFakeServers();
const USER = "U500";
const DM = "D500";

describe("Slack typingReaction", () => {
  it("reacts on the message while the reply is written, then takes the reaction back", { timeout: 30_000 }, async () => {
    const slack = await startFakeSlack();
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      servers.model.setResponder(async () => {
        await held;
        return { text: "done thinking" };
      });
      const stateDir = makeTempDir();
      const channels = {
        slack: { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, allowFrom: [USER], typingReaction: "hourglass_flowing_sand" },
      };
      const gw = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels }) } }));
      await gw.waitForOutput(/channel account started/, 10_000);
      const { ts } = slack.pushMessage({ channel: DM, channelType: "im", user: USER, text: "take your time" });
      const reactionCalls = () => slack.calls.filter((c) => c.method.startsWith("reactions."));
      await slack.waitFor(() => reactionCalls().length === 1, 10_000);
      expect(reactionCalls()[0]).toEqual({ method: "reactions.add", body: expect.objectContaining({ channel: DM, timestamp: ts, name: "hourglass_flowing_sand" }) });
      expect(slack.posted.filter((p) => p.channel === DM)).toHaveLength(0);

      release();
      await slack.waitFor(() => reactionCalls().length === 2, 10_000);
      expect(reactionCalls()[1]).toEqual({ method: "reactions.remove", body: expect.objectContaining({ channel: DM, timestamp: ts, name: "hourglass_flowing_sand" }) });
      await slack.waitFor(() => slack.posted.some((p) => p.channel === DM && p.text === "done thinking"), 10_000);
    } finally {
      await slack.close();
    }
  });
});
