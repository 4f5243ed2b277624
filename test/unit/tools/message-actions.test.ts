import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import type { ChannelActionRequest, ChannelMessageRequest } from "../../../src/agents/types.js";
import { createMessageTool } from "../../../src/agents/tools/message.js";
import { errorOf, makeContext, makeTempDir, neverAborted, textOf } from "./helpers.js";

/** The message tool against a messenger that records what it was asked to send or do. */
function setup(options: { senderIsOwner?: boolean; actFails?: string } = {}) {
  const sends: ChannelMessageRequest[] = [];
  const acts: ChannelActionRequest[] = [];
  const ctx = {
    ...makeContext(makeTempDir(), {
      channelMessenger: {
        send: async (request) => {
          sends.push(request);
          return { channel: "telegram", accountId: "default", chatId: "111", messageIds: ["7"] };
        },
        act: async (request) => {
          acts.push(request);
          if (options.actFails) throw new Error(options.actFails);
          const outcome = request.action === "react" ? (request.remove || request.emoji === "" ? { removed: request.emoji } : { added: request.emoji }) : {};
          return { action: request.action, channel: "telegram", accountId: "default", chatId: "111", messageId: request.messageId ?? "10", ...outcome };
        },
      },
    }),
    senderIsOwner: options.senderIsOwner ?? true,
  };
  return { tool: createMessageTool(), ctx, sends, acts };
}

describe("message tool actions", () => {
  it("keeps a call without action a send, and the schema takes a react without message", () => {
    const { tool } = setup();
    expect(Value.Check(tool.parameters, { message: "hi" })).toBe(true);
    expect(Value.Check(tool.parameters, { action: "react", emoji: "👍" })).toBe(true);
    expect(Value.Check(tool.parameters, { action: "pin", messageId: "1" })).toBe(false);
  });

  it("sends as before when action is send or absent", async () => {
    const { tool, ctx, sends, acts } = setup();
    expect(textOf(await tool.execute({ message: "hi" }, ctx, neverAborted))).toBe("Sent to telegram 111 (message 7).");
    await tool.execute({ action: "send", message: "again" }, ctx, neverAborted);
    expect(sends.map((s) => s.message)).toEqual(["hi", "again"]);
    expect(sends[1]).not.toHaveProperty("action");
    expect(acts).toEqual([]);
  });

  it("reacts in the current conversation without a messageId, leaving the default to the gateway", async () => {
    const { tool, ctx, acts } = setup();
    const result = await tool.execute({ action: "react", emoji: "👍" }, ctx, neverAborted);
    expect(acts).toEqual([{ action: "react", emoji: "👍", sessionKey: "agent:main:main" }]);
    expect(textOf(result)).toBe("Reacted 👍 to telegram 111 message 10.");
  });

  it("takes back one emoji with remove, and all of the bot's with an empty emoji", async () => {
    const { tool, ctx, acts } = setup();
    expect(textOf(await tool.execute({ action: "react", messageId: "5", emoji: "👍", remove: true }, ctx, neverAborted))).toBe("Took back 👍 on telegram 111 message 5.");
    expect(textOf(await tool.execute({ action: "react", messageId: "5", emoji: "" }, ctx, neverAborted))).toBe("Took back your reactions on telegram 111 message 5.");
    expect(acts.map((a) => a.action === "react" && [a.emoji, a.remove])).toEqual([
      ["👍", true],
      ["", undefined],
    ]);
  });

  it("edits and deletes a message by id, with the target fields passed on", async () => {
    const { tool, ctx, acts } = setup();
    expect(textOf(await tool.execute({ action: "edit", messageId: "7", message: "fixed" }, ctx, neverAborted))).toBe("Edited telegram 111 message 7.");
    expect(textOf(await tool.execute({ action: "delete", messageId: "7", to: "222", channel: "telegram" }, ctx, neverAborted))).toBe("Deleted telegram 111 message 7.");
    expect(acts).toEqual([
      { action: "edit", message: "fixed", messageId: "7", sessionKey: "agent:main:main" },
      { action: "delete", messageId: "7", to: "222", channel: "telegram", sessionKey: "agent:main:main" },
    ]);
  });

  it("refuses, doing nothing, what an action needs but lacks and what it does not take", async () => {
    const { tool, ctx, sends, acts } = setup();
    const cases: [Parameters<typeof tool.execute>[0], string][] = [
      [{}, "The send action needs `message` (the text to send)."],
      [{ action: "edit", messageId: "7" }, "The edit action needs `message` (the new text)."],
      [{ action: "edit", message: "x" }, "The edit action needs `messageId` (the id of the bot's message to change)."],
      [{ action: "delete" }, "The delete action needs `messageId` (the id of the bot's message to delete)."],
      [{ action: "react" }, 'The react action needs `emoji` (the emoji to add; "" takes back your reactions).'],
      [{ action: "react", emoji: "", remove: true }, "remove: true takes back one emoji, and no emoji was given."],
      [{ action: "react", emoji: "👍", message: "hi" }, "The react action takes no message."],
      [{ action: "delete", messageId: "7", file: "a.png" }, "The delete action takes no file."],
      [{ message: "hi", messageId: "7", emoji: "👍" }, "The send action takes no messageId, emoji."],
    ];
    for (const [args, message] of cases) {
      const error = errorOf(await tool.execute(args, ctx, neverAborted));
      expect(error.message, JSON.stringify(args)).toBe(message);
      expect(error.error).toBe("MESSAGE_ACTION_INVALID");
      expect(error.suggestion).toBeTruthy();
    }
    expect(sends).toEqual([]);
    expect(acts).toEqual([]);
  });

  it("lets a sender who is not the owner react in the current conversation only, and never edit or delete", async () => {
    const { tool, ctx, acts } = setup({ senderIsOwner: false });
    const elsewhere = errorOf(await tool.execute({ action: "react", emoji: "👀", to: "222" }, ctx, neverAborted));
    expect(elsewhere.error).toBe("MESSAGE_TARGET_OWNER_ONLY");
    for (const args of [
      { action: "delete" as const, messageId: "7" },
      { action: "edit" as const, messageId: "7", message: "changed" },
    ]) {
      const refused = errorOf(await tool.execute(args, ctx, neverAborted));
      expect(refused).toMatchObject({ error: "MESSAGE_TARGET_OWNER_ONLY", message: `Only the owner may ${args.action} messages; this sender is not the owner.` });
    }
    expect(textOf(await tool.execute({ action: "react", emoji: "👀" }, ctx, neverAborted))).toBe("Reacted 👀 to telegram 111 message 10.");
    expect(acts).toHaveLength(1);
  });

  it("gives the model the channel's reason when the action fails", async () => {
    const { tool, ctx } = setup({ actFails: "Bad Request: message to edit not found" });
    const error = errorOf(await tool.execute({ action: "edit", messageId: "99", message: "x" }, ctx, neverAborted));
    expect(error).toMatchObject({ error: "CHANNEL_ACTION_FAILED", message: "The edit failed: Bad Request: message to edit not found" });
  });
});
