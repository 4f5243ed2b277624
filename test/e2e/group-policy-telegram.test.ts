import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { sleep } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A Telegram group's own `groupPolicy` through a real gateway and grammY: `open` there lets any
 * member in although the account's sender list does not name them; the account's `allowlist`
 * still filters its other groups.
 */

const OWNER = 4242;
const MEMBER = 5151;
const OPEN_GROUP = -100601;
const LISTED_GROUP = -100602;
const servers = useFakeServers({ telegram: true });

describe("a Telegram group's groupPolicy", { timeout: 60_000 }, () => {
  it("open in one group admits its members; the account's allowlist filters the other", async () => {
    const stateDir = makeTempDir("openclaw-group-policy-");
    servers.model.setResponder((req) => ({ text: `re: ${lastUserTextOf(req)}` }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(OWNER)],
      groupPolicy: "allowlist",
      groupAllowFrom: [String(OWNER)],
      requireMention: false,
      groups: { [OPEN_GROUP]: { groupPolicy: "open" }, [LISTED_GROUP]: {} },
    });
    const gateway = servers.keep(
      await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) } }),
    );
    await gateway.waitForOutput(/channel account started/, 10_000);
    servers.telegram.pushMessage({ chatId: LISTED_GROUP, fromId: MEMBER, fromName: "Member", text: "member in the listed group", messageId: 1 });
    servers.telegram.pushMessage({ chatId: OPEN_GROUP, fromId: MEMBER, fromName: "Member", text: "member in the open group", messageId: 2 });
    await servers.telegram.waitFor(() => servers.telegram.messages(OPEN_GROUP).length === 1, 15_000);
    await sleep(300);
    expect(chatRequests(servers.model.requests).map((r) => lastUserTextOf(r))).toEqual(["[Member] member in the open group"]);
    expect(servers.telegram.messages(LISTED_GROUP)).toHaveLength(0);
    await gateway.stop();
  });
});
