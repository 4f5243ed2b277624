import { describe, expect, it } from "vitest";
import { genAiInputMessages } from "../../../src/traces/otel-messages.js";

describe("genAiInputMessages", () => {
  it("gives the history in the GenAI conventions' parts, then the run's input, leaving out what a model never sees", () => {
    const history = [
      {
        role: "user",
        content: [
          { type: "text", text: "look at this" },
          { type: "image", mimeType: "image/png", omittedChars: 4000 },
        ],
        timestamp: 1,
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "a picture" },
          { type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.txt" } },
        ],
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "call-1", toolName: "read", content: [{ type: "text", text: "contents" }], isError: false, timestamp: 3 },
      { role: "compactionSummary", content: "earlier talk", timestamp: 4 },
      { role: "assistant", content: [{ type: "text", text: "done" }], timestamp: 5 },
    ];
    expect(genAiInputMessages(history, ["next", "and this"])).toEqual([
      {
        role: "user",
        parts: [
          { type: "text", content: "look at this" },
          { type: "image", mime_type: "image/png" },
        ],
      },
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "a picture" },
          { type: "tool_call", id: "call-1", name: "read", arguments: { path: "a.txt" } },
        ],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call-1", response: "contents" }] },
      { role: "assistant", parts: [{ type: "text", content: "done" }] },
      { role: "user", parts: [{ type: "text", content: "next" }] },
      { role: "user", parts: [{ type: "text", content: "and this" }] },
    ]);
  });

  it("a plain string content is one text part; no history gives the input alone", () => {
    expect(genAiInputMessages([{ role: "user", content: "hi", timestamp: 1 }], [])).toEqual([{ role: "user", parts: [{ type: "text", content: "hi" }] }]);
    expect(genAiInputMessages([], ["only"])).toEqual([{ role: "user", parts: [{ type: "text", content: "only" }] }]);
  });
});
