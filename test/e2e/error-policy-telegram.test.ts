import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useTelegramGateway } from "../helpers/telegram-gateway.js";

/**
 * `errorPolicy` through the real grammY client and a fake Bot API: a failed turn's notice reaches
 * an `always` chat each time, a `once` chat once per distinct notice, a `silent` chat never; a
 * group's own policy wins over the account's.
 */
const OWNER = 6161;
const SILENT_GROUP = -100_900;
let messageId = 1;

const fixture = useTelegramGateway({
  config: ({ model, telegram, stateDir }) => {
    const groups = { [String(SILENT_GROUP)]: { requireMention: false, errorPolicy: "silent" } };
    const telegramConfig = telegramChannelConfig(telegram, { allowFrom: [String(OWNER)], groupAllowFrom: [String(OWNER)], groups, errorPolicy: "once" });
    // followup: the sentinel waits for the failing turn to end instead of being steered into it.
    return JSON.parse(fakeModelConfig(model, stateDir, { channels: { telegram: telegramConfig }, messages: { queue: { mode: "followup" } } }));
  },
});

const textsIn = (chatId: number) => fixture.telegram.messages(chatId).map((m) => String(m.text));

/** Sends `text`, then a sentinel that succeeds; resolves with what the chat got for both, once the sentinel's answer is there. */
async function failThenSentinel(chatId: number, text: string): Promise<string[]> {
  const before = textsIn(chatId).length;
  fixture.model.enqueue({ status: 401 });
  fixture.telegram.pushMessage({ chatId, fromId: OWNER, text, messageId: messageId++ });
  fixture.telegram.pushMessage({ chatId, fromId: OWNER, text: `sentinel after ${text}`, messageId: messageId++ });
  await fixture.telegram.waitFor(() => textsIn(chatId).some((t) => t.includes(`sentinel after ${text}`)), 15_000);
  return textsIn(chatId).slice(before);
}

describe("Telegram errorPolicy", { timeout: 60_000 }, () => {
  it("once: the same failure notice reaches a chat once, the rest still answered", async () => {
    const first = await failThenSentinel(OWNER, "first");
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^⚠️ /);
    expect(first[1]).toBe("model: sentinel after first");
    expect(await failThenSentinel(OWNER, "second")).toEqual(["model: sentinel after second"]);
  });

  it("silent in a group: no failure notice there, whatever the account says", async () => {
    expect(await failThenSentinel(SILENT_GROUP, "in the group")).toEqual([`model: [User ${OWNER}] sentinel after in the group`]);
  });
});
