import { describe, expect, it } from "vitest";
import { genAiCallInput, genAiInputMessages, genAiOutputMessage } from "../../../src/traces/otel-messages.js";

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

describe("a model call's messages", () => {
  it("were the history, the run's first input, then what the run appended before the call; its reply ends with the conventions' finish reason", () => {
    const history = [{ role: "user", content: "earlier", timestamp: 1 }];
    const call = {
      role: "assistant",
      content: [
        { type: "text", text: "looking" },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
      ],
      timestamp: 2,
    };
    const result = { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, timestamp: 3 };
    const steered = { role: "user", content: "also this", timestamp: 4 };
    expect(genAiCallInput(history, ["now", "also this"], [call, result, steered])).toEqual([
      { role: "user", parts: [{ type: "text", content: "earlier" }] },
      { role: "user", parts: [{ type: "text", content: "now" }] },
      {
        role: "assistant",
        parts: [
          { type: "text", content: "looking" },
          { type: "tool_call", id: "c1", name: "read", arguments: { path: "a" } },
        ],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "c1", response: "A" }] },
      { role: "user", parts: [{ type: "text", content: "also this" }] },
    ]);
    expect(genAiOutputMessage(call, "toolUse")).toEqual({
      role: "assistant",
      parts: [
        { type: "text", content: "looking" },
        { type: "tool_call", id: "c1", name: "read", arguments: { path: "a" } },
      ],
      finish_reason: "tool_call",
    });
    expect(genAiOutputMessage({ role: "assistant", content: [{ type: "text", text: "ok" }] }, "stop").finish_reason).toBe("stop");
  });
});
