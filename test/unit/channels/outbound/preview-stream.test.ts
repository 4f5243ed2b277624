import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../../../src/agents/types.js";
import { nextStepEnd, PreviewStream } from "../../../../src/channels/outbound/preview-stream.js";
import type { ChannelAccount } from "../../../../src/channels/types.js";
import type { AssistantMessage } from "../../../../src/models/messages.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function chat() {
  const shown: string[] = [];
  const account = {
    send: async (_t: unknown, text: { markdown: string }) => {
      shown.push(text.markdown);
      return { messageId: "1" };
    },
    editMessage: async (_t: unknown, _id: string, text: { markdown: string }) => void shown.push(text.markdown),
  } as unknown as ChannelAccount;
  return { shown, account };
}

const text = (value: string): AgentEvent => ({
  type: "message_update",
  message: { role: "assistant", content: [{ type: "text", text: value }], timestamp: 0 } as AssistantMessage,
  delta: { kind: "text", text: value },
});
const tool = (toolName: string, args: Record<string, unknown>): AgentEvent => ({ type: "tool_execution_start", toolCallId: "t", toolName, args });

describe("PreviewStream (streaming.mode partial)", () => {
  it("tool lines follow the text while tools run, and the model's next text replaces them", async () => {
    const { shown, account } = chat();
    const preview = new PreviewStream(account, { chatId: "1" }, { throttleMs: 100, maxChars: 4000, toolProgress: true, commandText: "raw", detail: "explain" });
    preview.onEvent(text("Let me look."));
    await vi.advanceTimersByTimeAsync(10);
    preview.onEvent(tool("exec", { command: "ls -la" }));
    await vi.advanceTimersByTimeAsync(200);
    preview.onEvent(text("Found it."));
    await vi.advanceTimersByTimeAsync(200);
    await preview.finish();
    expect(shown).toEqual(["Let me look.", "Let me look.\n\n• 💻 Exec: ls -la", "Found it."]);
  });

  it("toolProgress false shows only the text", async () => {
    const { shown, account } = chat();
    const preview = new PreviewStream(account, { chatId: "1" }, { throttleMs: 100, maxChars: 4000, toolProgress: false, commandText: "status", detail: "explain" });
    preview.onEvent(text("Let me look."));
    await vi.advanceTimersByTimeAsync(10);
    preview.onEvent(tool("read", { path: "a.md" }));
    await vi.advanceTimersByTimeAsync(200);
    await preview.finish();
    expect(shown).toEqual(["Let me look."]);
  });
});

describe("PreviewStream (streaming.mode block)", () => {
  it("the draft grows in steps of at least minChars, each ending at a break", async () => {
    const { shown, account } = chat();
    const preview = new PreviewStream(
      account,
      { chatId: "1" },
      { throttleMs: 100, maxChars: 4000, toolProgress: true, commandText: "status", detail: "explain", chunk: { minChars: 20, maxChars: 40 } },
    );
    const full = "First sentence is here. Second one follows it. Third comes last.";
    for (let end = 5; end <= full.length; end += 5) {
      preview.onEvent(text(full.slice(0, end)));
      await vi.advanceTimersByTimeAsync(200);
    }
    await preview.finish();
    expect(shown).toEqual(["First sentence is here.", "First sentence is here. Second one follows it."]);
  });

  it("nextStepEnd: nothing before minChars; then a line break, a sentence's end, a space, else maxChars", () => {
    expect(nextStepEnd("short", 0, 10, 20)).toBeUndefined();
    expect(nextStepEnd("line one is long\nand more text follows here", 0, 10, 30)).toBe(17);
    expect(nextStepEnd("A sentence here. And then some more words", 0, 10, 30)).toBe(16);
    expect(nextStepEnd("words words words words words words", 0, 10, 20)).toBe(18);
    expect(nextStepEnd("x".repeat(50), 0, 10, 20)).toBe(20);
    expect(nextStepEnd("done. More", 0, 4, 10)).toBe(5);
  });
});
