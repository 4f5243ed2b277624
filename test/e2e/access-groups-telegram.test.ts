import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf } from "../helpers/model-request.js";
import { sleep, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `accessGroups` through a real gateway and grammY: the DM allowlist and the group sender list
 * name groups (`accessGroup:<name>`), whose members for Telegram and under `*` get in while
 * everyone else stays out; a group the config does not define admits nobody and is named in a
 * warning at start.
 */

const OPERATOR = 1111;
const SHARED = 2222;
const ONCALL = 3333;
const STRANGER = 4444;
const GROUP = -100555;
const servers = useFakeServers({ telegram: true });

describe("access groups over Telegram", { timeout: 60_000 }, () => {
  it("members of the named groups reach the agent in DMs and the group; nobody else does", async () => {
    const stateDir = makeTempDir("openclaw-access-groups-");
    servers.model.setResponder((req) => ({ text: `answer to ${lastUserTextOf(req)}` }));
    const telegram = telegramChannelConfig(servers.telegram, {
      dmPolicy: "allowlist",
      allowFrom: ["accessGroup:operators", "accessGroup:retired"],
      groupPolicy: "allowlist",
      groupAllowFrom: ["accessGroup:oncall"],
      requireMention: false,
      groups: { [GROUP]: {} },
    });
    const config = fakeModelConfig(servers.model, stateDir, {
      channels: { telegram },
      accessGroups: {
        operators: { type: "message.senders", members: { telegram: [String(OPERATOR)], "*": [String(SHARED)] } },
        oncall: { type: "message.senders", members: { telegram: [`tg:${ONCALL}`] } },
      },
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/accessGroup:retired names no accessGroups entry, so it admits nobody/, 10_000);
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const push = (chatId: number, fromId: number, text: string) => servers.telegram.pushMessage({ chatId, fromId, fromName: `User ${fromId}`, text, messageId: messageId++ });
    const asked = () => chatRequests(servers.model.requests).map((r) => lastUserTextOf(r));

    push(OPERATOR, OPERATOR, "from the operator");
    push(SHARED, SHARED, "from the shared member");
    push(STRANGER, STRANGER, "from a stranger");
    push(GROUP, ONCALL, "from on-call in the group");
    push(GROUP, OPERATOR, "from the operator in the group");
    await servers.telegram.waitFor(() => servers.telegram.messages(GROUP).length === 1 && servers.telegram.messages(SHARED).length === 1, 15_000);
    await waitUntil(() => servers.telegram.messages(OPERATOR).length === 1, 10_000, "the operator's answer");
    await sleep(500);
    expect(asked().sort()).toEqual(["[User 3333] from on-call in the group", "from the operator", "from the shared member"]);
    expect(servers.telegram.messages(STRANGER)).toHaveLength(0);
    await gateway.stop();
  });
});
