import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../ui/src/views/chat-message.js";
import { replyRuns } from "../../../ui/src/views/reply-runs.js";

const user = (text: string): ChatMessage => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string, answers?: string[]): ChatMessage => ({
  role: "assistant",
  content: text ? [{ type: "text", text }] : [{ type: "toolCall", name: "read" }],
  ...(answers ? { answers } : {}),
});
const tool: ChatMessage = { role: "toolResult", content: [{ type: "text", text: "file body" }], toolName: "read" };

describe("replyRuns: which chat rows end a run's reply", () => {
  it("the last assistant text of a turn carries the run its first assistant message names", () => {
    const calling = assistant("", ["run-1"]);
    const reply = assistant("the answer");
    const second = assistant("another answer", ["run-2"]);
    const runs = replyRuns([user("q1"), calling, tool, reply, user("q2"), second]);
    expect([...runs.entries()]).toEqual([
      [reply, "run-1"],
      [second, "run-2"],
    ]);
  });

  it("the run the gateway wrote on the message wins: a reply to a steered-in message is the running turn's", () => {
    const calling: ChatMessage = { ...assistant("", ["run-1"]), runId: "run-1" };
    const reply: ChatMessage = { ...assistant("both answered", ["steered-2"]), runId: "run-1" };
    expect([...replyRuns([user("q1"), calling, tool, user("steered in"), reply]).entries()]).toEqual([[reply, "run-1"]]);
  });

  it("without it (an older transcript), a merged turn's run is the last key it answers", () => {
    const reply = assistant("both answered", ["key-a", "key-b"]);
    expect(replyRuns([user("a"), user("b"), reply]).get(reply)).toBe("key-b");
  });

  it("rows before any answers (an older page's tail, an injected note) are tied to no run", () => {
    const orphan = assistant("from an older page");
    const injected = assistant("a note");
    expect(replyRuns([orphan, user("q"), injected]).size).toBe(0);
  });

  it("a turn with no text (only tool calls) has no reply to rate", () => {
    expect(replyRuns([user("q"), assistant("", ["run-1"]), tool]).size).toBe(0);
  });
});
