import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastMessageOf, lastUserTextOf, systemPromptOf, toolNamesOf } from "../helpers/model-request.js";
import { sleep, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * `messages.groupChat.unmentionedInbound: room_event` and `visibleReplies: message_tool` through a
 * real gateway and grammY. In an always-on group, an unmentioned message is quiet room context:
 * the agent reads it marked as a room event, gets no typing indicator or reaction, and speaks only
 * through the `message` tool (a member who is not the owner keeps that tool for the group only).
 * A mentioned message is a request whose final text stays private: a long one that was not sent
 * gets one retry with only the `message` tool, and when that fails too the chat is told. A DM
 * (no global `visibleReplies`) is answered as usual.
 */

const OWNER = 4242;
const MEMBER = 5151;
const GROUP = -100777;
const servers = useFakeServers({ telegram: true });

const LONG_ANSWER =
  "Here is the summary. The build broke after the dependency bump, because the lockfile pinned an older resolver. The fix is to refresh the lockfile and rerun the pipeline. After that the deploy can go out as planned, and nobody needs to touch the staging database again this week.";

describe("visible replies and room events over Telegram", { timeout: 90_000 }, () => {
  it("room events stay quiet unless the agent sends, and a stranded long reply is retried once", async () => {
    const stateDir = makeTempDir("openclaw-visible-replies-");
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(OWNER)],
      groupAllowFrom: [String(OWNER), String(MEMBER)],
      requireMention: false,
      groups: { [GROUP]: {} },
      typingIntervalSeconds: 6,
    });
    const config = fakeModelConfig(servers.model, stateDir, {
      channels: { telegram },
      messages: {
        ackReaction: "👀",
        groupChat: { unmentionedInbound: "room_event", visibleReplies: "message_tool", mentionPatterns: ["\\bclaw\\b"] },
      },
    });
    let retryFails = false;
    servers.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "tool") return { text: "sent." };
      const text = lastUserTextOf(req);
      if (text.includes("build is red")) return { toolCalls: [{ name: "message", arguments: { message: "I can look at the build." } }] };
      if (text.includes("lunch")) return { text: "Lunch talk, nothing to add." };
      if (text.includes("tell the owner")) return { toolCalls: [{ name: "message", arguments: { message: "hi", to: String(OWNER) } }] };
      if (text.includes("was not delivered")) return retryFails ? { text: LONG_ANSWER } : { toolCalls: [{ name: "message", arguments: { message: LONG_ANSWER } }] };
      if (text.includes("summarize")) return { text: LONG_ANSWER };
      return { text: "plain answer" };
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const push = (chatId: number, fromId: number, text: string) =>
      servers.telegram.pushMessage({ chatId, fromId, fromName: fromId === OWNER ? "Owner" : "Member", text, messageId: messageId++ });
    const requests = () => chatRequests(servers.model.requests);
    const groupTexts = () => servers.telegram.messages(GROUP).map((m) => m.text);
    const toGroup = (method: string) => servers.telegram.sent.filter((c) => c.method === method && String(c.body.chat_id) === String(GROUP));

    // A member's unmentioned message: a room event; the agent's message-tool send is the only thing the room sees.
    push(GROUP, MEMBER, "the build is red again");
    await servers.telegram.waitFor(() => groupTexts().includes("I can look at the build."), 15_000);
    const roomRequest = requests()[0]!;
    expect(lastUserTextOf(roomRequest)).toMatch(/^\[OpenClaw room event\]\n\nRoom context:\n#1 \[Member\] the build is red again\n\n.*stay silent/s);
    expect(toolNamesOf(roomRequest)).toContain("message");
    expect(toolNamesOf(roomRequest)).not.toContain("exec");
    await waitUntil(() => requests().length === 2, 10_000, "the model call after the tool");
    await sleep(500);
    expect(groupTexts()).toEqual(["I can look at the build."]);
    expect(toGroup("sendChatAction")).toHaveLength(0);
    expect(toGroup("setMessageReaction")).toHaveLength(0);

    // A room event the agent only answers in its final text: nothing reaches the room.
    push(GROUP, MEMBER, "anyone for lunch?");
    await waitUntil(() => requests().length === 3, 10_000, "the lunch room event");
    // A non-owner may not aim the message tool elsewhere.
    push(GROUP, MEMBER, "claw, tell the owner hi");
    await waitUntil(() => requests().length === 5, 10_000, "the refused send and the turn after it");
    expect(lastMessageOf(requests()[4]!).text).toContain("Only the owner may send elsewhere");
    expect(systemPromptOf(requests()[3]!)).toContain("your final text in this run is not sent to the chat");
    await sleep(500);
    expect(groupTexts()).toEqual(["I can look at the build."]);

    // A mention whose long final text was not sent: one retry with only the message tool delivers it.
    push(GROUP, MEMBER, "claw, summarize the incident");
    await servers.telegram.waitFor(() => groupTexts().includes(LONG_ANSWER), 15_000);
    const retry = requests().find((r) => lastUserTextOf(r).includes("was not delivered"))!;
    expect(toolNamesOf(retry)).toEqual(["message"]);
    expect(toGroup("setMessageReaction").length).toBeGreaterThan(0);

    // When the retry does not send either, the chat is told.
    retryFails = true;
    push(GROUP, MEMBER, "claw, summarize it again");
    await servers.telegram.waitFor(() => groupTexts().includes("I generated a reply but could not deliver it to this chat. Please try again."), 15_000);
    expect(groupTexts().filter((t) => t === LONG_ANSWER)).toHaveLength(1);

    // A DM: no global visibleReplies, so the final text is the reply.
    push(OWNER, OWNER, "hello there");
    await servers.telegram.waitFor(() => servers.telegram.messages(OWNER).some((m) => m.text === "plain answer"), 15_000);
    await gateway.stop();
  });
});
