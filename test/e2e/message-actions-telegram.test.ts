import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastMessageOf } from "../helpers/model-request.js";
import { chatRequests, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import type { RecordedRequest } from "../fakes/model-server.js";

/**
 * The message tool's react, edit and delete, and `message.action` react, end to end: a real
 * gateway long-polls the fake Telegram Bot API; the model is the fake model server.
 */

const OWNER = 111;
const servers = useFakeServers();

async function start(): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const gw = await startGateway({
    stateDir,
    configFile: {
      name: "openclaw.json",
      content: fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)] }) } }),
    },
  });
  servers.keep(gw);
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

const calls = (method: string) => servers.telegram.sent.filter((c) => c.method === method && String(c.body.chat_id) === String(OWNER));
const reactionsOf = (call: { body: Record<string, unknown> }) => (call.body.reaction as { emoji: string }[]).map((r) => r.emoji);
/** The tool results the model was given, in order. */
const toolResults = () =>
  chatRequests(servers.model)
    .map((req) => lastMessageOf(req as RecordedRequest))
    .filter((m) => m.role === "tool")
    .map((m) => m.text);

describe("message tool actions on Telegram", () => {
  it("reacts to the message the turn answers when the model names no messageId", async () => {
    await servers.startTelegram();
    servers.model.enqueue({ toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍" } }] }, { text: "Done." });
    await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "like this please", messageId: 42 });
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).length === 1, 10_000);
    const reactions = calls("setMessageReaction").filter((c) => reactionsOf(c).includes("👍"));
    expect(reactions.map((c) => Number(c.body.message_id))).toEqual([42]);
    expect(toolResults()).toEqual(["Reacted 👍 to telegram 111 message 42."]);
  });

  it("edits and deletes a message the bot sent, and the model sees the error for a message that is not there", async () => {
    await servers.startTelegram();
    let sentId = "";
    servers.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user") return { toolCalls: [{ name: "message", arguments: { message: "first draft" } }] };
      const step = toolResults().length;
      if (step === 1) {
        sentId = /\(message (\d+)\)/.exec(last.text)![1]!;
        return { toolCalls: [{ name: "message", arguments: { action: "edit", messageId: sentId, message: "final text" } }] };
      }
      if (step === 2) return { toolCalls: [{ name: "message", arguments: { action: "edit", messageId: "999999", message: "nowhere" } }] };
      if (step === 3) return { toolCalls: [{ name: "message", arguments: { action: "delete", messageId: sentId } }] };
      return { text: "All tidy." };
    });
    await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "draft something", messageId: 5 });
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).some((m) => m.text === "All tidy."), 10_000);
    expect(calls("editMessageText").map((c) => [String(c.body.message_id), c.body.text])).toEqual([[sentId, "final text"]]);
    expect(calls("deleteMessage").map((c) => String(c.body.message_id))).toEqual([sentId]);
    const [, edited, missing, deleted] = toolResults();
    expect(edited).toBe(`Edited telegram 111 message ${sentId}.`);
    expect(JSON.parse(missing!)).toMatchObject({ error: "CHANNEL_ACTION_FAILED", message: expect.stringMatching(/^The edit failed: .*message to edit not found/) });
    expect(deleted).toBe(`Deleted telegram 111 message ${sentId}.`);
  });

  it("message.action reacts, takes the reaction back and refuses what it cannot do, as OpenClaw's CLI calls it", async () => {
    await servers.startTelegram();
    const gw = await start();
    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    // The fields OpenClaw's `openclaw message react --channel telegram --target 111 --message-id 7 --emoji 👍 --json` sends
    // (its flags, false when not given, and the routing it worked out, as its `message send` does).
    const react = (params: Record<string, unknown>) =>
      runCli(
        [
          "gateway",
          "call",
          "message.action",
          "--json",
          "--params",
          JSON.stringify({
            channel: "telegram",
            action: "react",
            idempotencyKey: `k-${Math.random()}`,
            params: {
              json: true,
              dryRun: false,
              verbose: false,
              fromMe: false,
              remove: false,
              channel: "telegram",
              target: String(OWNER),
              action: "react",
              to: `telegram:${OWNER}`,
              __sessionKey: "agent:main:main",
              __agentId: "main",
              ...params,
            },
          }),
        ],
        env,
      );
    const added = await react({ messageId: "7", emoji: "👍" });
    expect(added.code, added.output).toBe(0);
    expect(JSON.parse(added.output)).toEqual({ ok: true, action: "react", channel: "telegram", accountId: "default", chatId: String(OWNER), messageId: "7", added: "👍" });
    const removed = await react({ messageId: "7", emoji: "👍", remove: true });
    expect(JSON.parse(removed.output)).toMatchObject({ ok: true, removed: "👍" });
    await waitUntil(() => calls("setMessageReaction").length === 2, 10_000, "both reactions");
    expect(calls("setMessageReaction").map((c) => [Number(c.body.message_id), reactionsOf(c)])).toEqual([
      [7, ["👍"]],
      [7, []],
    ]);
    const noId = await react({ emoji: "👍" });
    expect(noId.code).toBe(1);
    expect(noId.output).toContain("message.action react needs params.messageId");
    const noEmoji = await react({ messageId: "7" });
    expect(noEmoji.code).toBe(1);
    expect(noEmoji.output).toContain("message.action react needs params.emoji");
    // Another action on a message of the chat, with only the fields it needs.
    const act = (action: string, messageId: string) =>
      runCli(
        [
          "gateway",
          "call",
          "message.action",
          "--params",
          JSON.stringify({ channel: "telegram", action, idempotencyKey: `k-${action}`, params: { target: String(OWNER), messageId } }),
        ],
        env,
      );
    const pinned = await act("pin", "7");
    expect(pinned.code).toBe(1);
    expect(pinned.output).toContain("Channel telegram does not support action pin.");
    const gone = await act("delete", "424242");
    expect(gone.code).toBe(1);
    expect(gone.output).toMatch(/delete failed: .*message to delete not found/);
  });
});
