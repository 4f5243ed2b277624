import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `session.sendPolicy` and `/send` through a real gateway and grammY against a fake Bot API: a
 * group the policy silences still reaches the agent, but nothing goes back to it (no reply, no
 * typing, no reaction, no command answer) until the owner's `/send on`; DMs are answered
 * throughout. Over the WebSocket, `chat.send` into a silenced session and `agent` with
 * `deliver: true` are refused with OpenClaw's message.
 */

const OWNER = 777;
const GROUP = -100900;
const GROUP_KEY = `agent:main:telegram:group:${GROUP}`;
const servers = useFakeServers({ telegram: true });
const callsTo = (chatId: number) => servers.telegram.sent.filter((c) => String(c.body.chat_id) === String(chatId));
const modelSaw = (text: string) => servers.model.requests.some((r) => JSON.stringify(r.body).includes(text));

describe("session.sendPolicy over Telegram", { timeout: 60_000 }, () => {
  it("a denied group is read but never answered until /send on; chat.send and agent deliver are refused for a denied session", async () => {
    const stateDir = makeTempDir("openclaw-send-policy-");
    servers.model.setResponder(() => ({ text: "noted" }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(OWNER)],
      groupAllowFrom: [String(OWNER)],
      requireMention: false,
      groups: { [GROUP]: {} },
      typingIntervalSeconds: 6,
    });
    const config = fakeModelConfig(servers.model, stateDir, {
      channels: { telegram },
      messages: { ackReaction: "👀", ackReactionScope: "all" },
      session: { sendPolicy: { rules: [{ action: "deny", match: { channel: "telegram", chatType: "group" } }] } },
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const push = (chatId: number, text: string) => servers.telegram.pushMessage({ chatId, fromId: OWNER, fromName: "Owner", text, messageId: messageId++ });

    push(OWNER, "hello in private");
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length > 0, 15_000);

    push(GROUP, "hello in the group");
    await gateway.waitForOutput(/reply not sent: session send policy is deny/, 15_000);
    expect(modelSaw("hello in the group")).toBe(true);
    push(GROUP, "/send on");
    await gateway.waitForOutput(/command reply not sent: session send policy is deny/, 15_000);
    // Nothing at all went to the group: no reply, no "typing…", no ack reaction, no command answer.
    expect(callsTo(GROUP)).toEqual([]);

    push(GROUP, "and now?");
    await servers.telegram.waitFor(() => servers.telegram.messages(GROUP).length > 0, 15_000);
    expect(servers.telegram.shown(GROUP).join("\n")).toContain("noted");

    const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
    try {
      const row = async () => (await sock.request("sessions.describe", { key: GROUP_KEY })).payload.session;
      expect((await row()).sendPolicy).toBe("allow");
      expect((await sock.request("sessions.patch", { key: GROUP_KEY, sendPolicy: "deny" })).ok).toBe(true);
      const refused = await sock.request("chat.send", { sessionKey: GROUP_KEY, message: "from the operator", idempotencyKey: randomUUID() });
      expect(refused.ok).toBe(false);
      expect(refused.error.message).toBe("send blocked by session policy");
      const delivered = await sock.request("agent", { sessionKey: GROUP_KEY, message: "tell the group", deliver: true, idempotencyKey: randomUUID() });
      expect(delivered.ok).toBe(false);
      expect(delivered.error.message).toBe("send blocked by session policy");
      expect(modelSaw("from the operator") || modelSaw("tell the group")).toBe(false);
    } finally {
      sock.close();
    }
    await gateway.stop();
  });
});
