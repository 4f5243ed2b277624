import { describe, expect, it } from "vitest";
import { runMessageAction } from "../../../../src/channels/outbound/message-action.js";
import { ChannelSendRefused } from "../../../../src/channels/send-errors.js";
import type { ChannelAccount } from "../../../../src/channels/types.js";

const target = { chatId: "5" };

/** An account with only the operations named, recording each call. */
function account(ops: ("react" | "unreact" | "clearReactions" | "editMessage" | "deleteMessage")[]) {
  const calls: string[] = [];
  const all = {
    react: async (_t: unknown, id: string, emoji: string) => void calls.push(`react ${id} ${emoji}`),
    unreact: async (_t: unknown, id: string, emoji: string) => void calls.push(`unreact ${id} ${emoji}`),
    clearReactions: async (_t: unknown, id: string) => void calls.push(`clear ${id}`),
    editMessage: async (_t: unknown, id: string, text: { markdown: string }) => void calls.push(`edit ${id} ${text.markdown}`),
    deleteMessage: async (_t: unknown, id: string) => void calls.push(`delete ${id}`),
  };
  return { calls, account: Object.fromEntries(ops.map((op) => [op, all[op]])) as unknown as ChannelAccount };
}

describe("runMessageAction", () => {
  it("adds a reaction, edits and deletes through the account", async () => {
    const { calls, account: a } = account(["react", "editMessage", "deleteMessage"]);
    expect(await runMessageAction("telegram", a, target, "1", { action: "react", emoji: "👍" })).toEqual({ added: "👍" });
    expect(await runMessageAction("telegram", a, target, "1", { action: "edit", message: "new" })).toEqual({});
    expect(await runMessageAction("telegram", a, target, "1", { action: "delete" })).toEqual({});
    expect(calls).toEqual(["react 1 👍", "edit 1 new", "delete 1"]);
  });

  it("clears where the bot has one reaction per message, and takes back one emoji where it has several", async () => {
    const telegram = account(["react", "clearReactions"]);
    expect(await runMessageAction("telegram", telegram.account, target, "1", { action: "react", emoji: "" })).toEqual({ removed: "" });
    expect(await runMessageAction("telegram", telegram.account, target, "1", { action: "react", emoji: "👍", remove: true })).toEqual({ removed: "👍" });
    expect(telegram.calls).toEqual(["clear 1", "clear 1"]);
    const discord = account(["react", "unreact"]);
    expect(await runMessageAction("discord", discord.account, target, "1", { action: "react", emoji: "👍", remove: true })).toEqual({ removed: "👍" });
    expect(discord.calls).toEqual(["unreact 1 👍"]);
  });

  it("refuses by name what the account cannot do, calling nothing", async () => {
    const { calls, account: a } = account(["react", "unreact"]);
    await expect(runMessageAction("discord", a, target, "1", { action: "react", emoji: "" })).rejects.toThrow(
      new ChannelSendRefused("discord takes back the bot's reactions one emoji at a time: name the emoji with remove: true"),
    );
    await expect(runMessageAction("discord", a, target, "1", { action: "edit", message: "x" })).rejects.toThrow("discord cannot edit messages");
    await expect(runMessageAction("discord", a, target, "1", { action: "delete" })).rejects.toThrow("discord cannot delete messages");
    const none = account([]);
    await expect(runMessageAction("slack", none.account, target, "1", { action: "react", emoji: "👍" })).rejects.toThrow("slack cannot add reactions");
    await expect(runMessageAction("slack", none.account, target, "1", { action: "react", emoji: "👍", remove: true })).rejects.toThrow("slack cannot take back reactions");
    expect([...calls, ...none.calls]).toEqual([]);
  });
});
