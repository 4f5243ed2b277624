import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf, systemPromptOf } from "../helpers/model-request.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A chat entry's `systemPrompt` and `skills` through a real gateway and grammY: a group's prompt
 * joins the system prompt of its turns, a forum topic's replaces it there, and `skills` narrows the
 * skills offered in that chat; a DM gets neither.
 */

const OWNER = 4242;
const GROUP = -100444;
const servers = useFakeServers({ telegram: true });

describe("chat systemPrompt and skills over Telegram", { timeout: 60_000 }, () => {
  it("a group's and a topic's prompt and skills shape their turns only", async () => {
    const stateDir = makeTempDir("openclaw-chat-prompt-");
    for (const name of ["docs", "search"]) {
      const dir = path.join(stateDir, "workspace", "skills", name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Use when asked for ${name}.\n---\nDo it.\n`);
    }
    servers.model.setResponder(() => ({ text: "ok" }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(OWNER)],
      groupAllowFrom: [String(OWNER)],
      requireMention: false,
      groups: { [GROUP]: { systemPrompt: "Short answers only.", skills: ["docs"], topics: { "7": { systemPrompt: "Stay on topic." } } } },
    });
    const gateway = servers.keep(
      await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram } }) } }),
    );
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const turn = async (chatId: number, text: string, threadId?: number) => {
      const before = servers.telegram.messages(chatId).length;
      servers.telegram.pushMessage({ chatId, fromId: OWNER, fromName: "Owner", text, messageId: messageId++, ...(threadId ? { threadId } : {}) });
      await servers.telegram.waitFor(() => servers.telegram.messages(chatId).length > before, 15_000);
      return systemPromptOf(chatRequests(servers.model.requests).find((r) => lastUserTextOf(r).includes(text))!);
    };

    const inGroup = await turn(GROUP, "in the group");
    expect(inGroup).toContain("Short answers only.");
    expect(inGroup).toContain("Use when asked for docs");
    expect(inGroup).not.toContain("Use when asked for search");
    const inTopic = await turn(GROUP, "in the topic", 7);
    expect(inTopic).toContain("Stay on topic.");
    expect(inTopic).not.toContain("Short answers only.");
    // The topic keeps its group's skills.
    expect(inTopic).not.toContain("Use when asked for search");
    const inDm = await turn(OWNER, "in a DM");
    expect(inDm).not.toContain("Short answers only.");
    expect(inDm).toContain("Use when asked for search");
    await gateway.stop();
  });
});
