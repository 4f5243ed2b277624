import { describe, expect, it } from "vitest";
import { CHAT_LOOKUP_MAX, CHAT_LOOKUP_TTL_MS, ChatLookups, type LookedUpChat } from "../../../../extensions/telegram/chat-lookups.js";

/** A lookup function that counts its calls per chat and answers a group. */
function counter(): { ask: (chatId: string) => Promise<LookedUpChat>; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  return {
    calls,
    ask: async (chatId) => {
      calls.set(chatId, (calls.get(chatId) ?? 0) + 1);
      return { chatType: "group", peerId: chatId.replace(/^@/, "-100") };
    },
  };
}

describe("Telegram getChat answers", () => {
  it("are reused for CHAT_LOOKUP_TTL_MS, then asked again", async () => {
    let now = 1_000;
    const lookups = new ChatLookups(() => now);
    const { ask, calls } = counter();
    expect(await lookups.lookUp("-1001", ask)).toEqual({ chatType: "group", peerId: "-1001" });
    now += CHAT_LOOKUP_TTL_MS;
    await lookups.lookUp("-1001", ask);
    expect(calls.get("-1001")).toBe(1);
    now += 1;
    await lookups.lookUp("-1001", ask);
    expect(calls.get("-1001")).toBe(2);
  });

  it("keep at most CHAT_LOOKUP_MAX chats, the least recently used going first", async () => {
    const lookups = new ChatLookups(() => 0);
    const { ask, calls } = counter();
    for (let i = 0; i <= CHAT_LOOKUP_MAX; i++) await lookups.lookUp(`-100${i}`, ask);
    await lookups.lookUp(`-100${CHAT_LOOKUP_MAX}`, ask);
    expect(calls.get(`-100${CHAT_LOOKUP_MAX}`)).toBe(1);
    await lookups.lookUp("-1000", ask);
    expect(calls.get("-1000")).toBe(2);
  });

  it("do not keep a failed lookup, and are all forgotten by clear", async () => {
    const lookups = new ChatLookups(() => 0);
    await expect(lookups.lookUp("@missing", async () => Promise.reject(new Error("chat not found")))).rejects.toThrow("chat not found");
    const { ask, calls } = counter();
    await lookups.lookUp("@missing", ask);
    await lookups.lookUp("@missing", ask);
    expect(calls.get("@missing")).toBe(1);
    lookups.clear();
    await lookups.lookUp("@missing", ask);
    expect(calls.get("@missing")).toBe(2);
  });
});
