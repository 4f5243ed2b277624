import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../../../src/agents/types.js";
import { BlockReplyStream, type BlockStreamingSettings } from "../../../../src/channels/outbound/block-reply-stream.js";
import type { AssistantMessage } from "../../../../src/models/messages.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const settings = (over: Partial<BlockStreamingSettings> = {}): BlockStreamingSettings => ({
  breakAt: "text_end",
  chunking: { minChars: 10, maxChars: 200, breakPreference: "paragraph", flushOnParagraph: false },
  coalescing: { minChars: 10, maxChars: 200, idleMs: 0, joiner: "\n\n" },
  ...over,
});

const message = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0 });

/** The events of one assistant message streamed in `pieces`. */
function messageEvents(pieces: string[]): AgentEvent[] {
  const events: AgentEvent[] = [{ type: "message_start", message: message("") }];
  let text = "";
  for (const piece of pieces) {
    text += piece;
    events.push({ type: "message_update", message: message(text), delta: { kind: "text", text: piece } });
  }
  events.push({ type: "message_end", message: message(text) });
  return events;
}

function recorder(over: Partial<BlockStreamingSettings> = {}, random = () => 0.5) {
  const sent: { text: string; index: number; model: string | undefined; at: number }[] = [];
  const stream = new BlockReplyStream(
    settings(over),
    async (text, index, model) => {
      sent.push({ text, index, model, at: Date.now() });
    },
    (err) => {
      throw err;
    },
    random,
  );
  return { sent, stream, feed: (events: AgentEvent[]) => events.forEach(stream.onEvent) };
}

describe("BlockReplyStream", () => {
  it("text_end: a block goes out as soon as it is cut, before the message ends", async () => {
    const { sent, stream, feed } = recorder();
    const events = messageEvents(["First paragraph.\n", "\nSecond", " paragraph."]);
    feed(events.slice(0, 3));
    await vi.runAllTimersAsync();
    expect(sent.map((s) => s.text)).toEqual(["First paragraph."]);
    feed(events.slice(3));
    expect(await stream.finish()).toEqual({ lastMessage: "First paragraph.\n\nSecond paragraph." });
    expect(sent.map((s) => s.text)).toEqual(["First paragraph.", "Second paragraph."]);
  });

  it("message_end: nothing goes out until the message is complete", async () => {
    const { sent, stream, feed } = recorder({ breakAt: "message_end" });
    const events = messageEvents(["First paragraph.\n\n", "Second paragraph."]);
    feed(events.slice(0, -1));
    await vi.runAllTimersAsync();
    expect(sent).toEqual([]);
    feed(events.slice(-1));
    await stream.finish();
    expect(sent.map((s) => s.text)).toEqual(["First paragraph.\n\nSecond paragraph."]);
  });

  it("what the agent says before a tool is out before the tool starts, even below minChars", async () => {
    const { sent, stream, feed } = recorder({ coalescing: { minChars: 500, maxChars: 1000, idleMs: 1000, joiner: "\n\n" } });
    feed(messageEvents(["Checking now."]));
    expect(sent).toEqual([]);
    feed([{ type: "tool_execution_start", toolCallId: "t1", toolName: "read", args: {} }]);
    await stream.finish();
    expect(sent.map((s) => s.text)).toEqual(["Checking now."]);
  });

  it("a silent answer is never sent, and nothing streamed means no StreamedReply", async () => {
    const { sent, stream, feed } = recorder({ chunking: { minChars: 1, maxChars: 200, breakPreference: "paragraph", flushOnParagraph: true } });
    feed(messageEvents(["NO_", "REPLY"]));
    expect(await stream.finish()).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it("drops the text of a model attempt that failed before its message ended", async () => {
    const { sent, stream, feed } = recorder();
    feed(messageEvents(["Half of an answ"]).slice(0, -1));
    feed(messageEvents(["A whole answer."]));
    await stream.finish();
    expect(sent.map((s) => s.text)).toEqual(["A whole answer."]);
  });

  it("humanDelay pauses before each block after the first, and blocks keep their order", async () => {
    const { sent, stream, feed } = recorder({ humanDelay: { minMs: 800, maxMs: 2500 } }, () => 0.5);
    feed([{ type: "run_context", systemPrompt: "", promptVersion: "0123456789abcdef", model: "fake/primary", tools: [] }]);
    feed(messageEvents(["One block here.\n\n", "Two block here.\n\n", "Three"]));
    const done = stream.finish();
    await vi.runAllTimersAsync();
    await done;
    expect(sent.map((s) => [s.index, s.text, s.model])).toEqual([
      [0, "One block here.", "fake/primary"],
      [1, "Two block here.", "fake/primary"],
      [2, "Three", "fake/primary"],
    ]);
    expect(sent[1]!.at - sent[0]!.at).toBe(1650);
    expect(sent[2]!.at - sent[1]!.at).toBe(1650);
  });
});
