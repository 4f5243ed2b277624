import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/agents/types.js";
import { forkedMessages } from "../../../src/conversations/fork-conversation.js";

const user = (text: string) => ({ role: "user", content: text, timestamp: 0 }) as ModelMessage;
const answer = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0 }) as ModelMessage;
const calling = (name: string) => ({ role: "assistant", content: [{ type: "toolCall", id: "c1", name, arguments: {} }], timestamp: 0 }) as ModelMessage;

describe("forkedMessages", () => {
  it("copies the conversation without the assistant message whose tool calls are still running", () => {
    const copy = forkedMessages([user("hi"), answer("hello"), user("spawn one"), calling("sessions_spawn")], 100_000);
    expect("messages" in copy && copy.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("refuses a conversation past maxTokens, saying how long it is", () => {
    const copy = forkedMessages([user("x".repeat(4_000)), answer("y".repeat(4_000))], 1_000);
    expect(copy).toEqual({ tooLong: expect.any(Number) });
    expect((copy as { tooLong: number }).tooLong).toBeGreaterThan(2_000);
  });
});
