import { describe, expect, it } from "vitest";
import type { ChannelMessageRequest } from "../../../src/agents/types.js";
import { createMessageTool } from "../../../src/agents/tools/message.js";
import { errorOf, makeContext, makeTempDir, neverAborted, textOf } from "./helpers.js";

/** The message tool against a messenger that records what it was asked and answers as told. */
function setup(answer: { buttonsNotAttached?: string } = {}) {
  const requests: ChannelMessageRequest[] = [];
  const ctx = makeContext(makeTempDir(), {
    channelMessenger: {
      send: async (request) => {
        requests.push(request);
        return { channel: "discord", accountId: "default", chatId: "500", messageIds: ["9"], ...answer };
      },
      act: async () => {
        throw new Error("buttons never act on a message");
      },
    },
  });
  return { tool: createMessageTool(), ctx, requests };
}

describe("message tool buttons", () => {
  it("sends the rows with the text, and says where they went", async () => {
    const { tool, ctx, requests } = setup();
    const buttons = [
      [
        { label: "Yes", value: "yes", style: "success" as const },
        { label: "No", value: "no" },
      ],
    ];
    const result = await tool.execute({ message: "Ship it?", buttons }, ctx, neverAborted);
    expect(requests[0]).toMatchObject({ message: "Ship it?", buttons });
    expect(textOf(result)).toBe("Sent to discord 500 (message 9).");
  });

  it("says when the message went without them", async () => {
    const { tool, ctx } = setup({ buttonsNotAttached: "this chat takes no buttons (channels.telegram.capabilities.inlineButtons)" });
    const result = await tool.execute({ message: "Ship it?", buttons: [[{ label: "Yes", value: "yes" }]] }, ctx, neverAborted);
    expect(textOf(result)).toBe("Sent to discord 500 (message 9). Sent without its buttons: this chat takes no buttons (channels.telegram.capabilities.inlineButtons).");
  });

  it("refuses, sending nothing, a value over 64 bytes, an exec approval answer, or buttons with a file", async () => {
    const { tool, ctx, requests } = setup();
    const refused = async (args: Parameters<typeof tool.execute>[0]) => errorOf(await tool.execute(args, ctx, neverAborted));
    expect(await refused({ message: "m", buttons: [[{ label: "Long", value: "é".repeat(33) }]] })).toMatchObject({
      error: "MESSAGE_BUTTONS_INVALID",
      message: 'The buttons were not sent: the value of "Long" is over 64 bytes.',
    });
    expect((await refused({ message: "m", buttons: [[{ label: "Sure", value: "/approve 1234 allow-always" }]] })).message).toContain(
      "shaped like an answer to the gateway's own questions",
    );
    expect((await refused({ message: "m", file: "report.txt", buttons: [[{ label: "Yes", value: "yes" }]] })).message).toContain("not a file");
    expect(requests).toEqual([]);
  });
});
