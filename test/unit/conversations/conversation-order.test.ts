import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../src/agents/types.js";
import { orderConversation, orderForDisplay } from "../../../src/conversations/conversation-order.js";

const user = (key: string): TranscriptMessage => ({ role: "user", content: key, timestamp: 0, idempotencyKey: key }) as TranscriptMessage;
const answer = (text: string, answers?: string[]): TranscriptMessage =>
  ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0, ...(answers ? { answers } : {}) }) as TranscriptMessage;
const labels = (messages: TranscriptMessage[]) => messages.map((m) => (m.role === "user" ? `u:${m.content as string}` : `a:${(m.content as { text: string }[])[0]!.text}`));

describe("orderConversation", () => {
  it("puts a message that waited in the queue after the answer it arrived during", () => {
    // Written in arrival order: q2 arrived while q1's run was going.
    const stored = [user("q1"), user("q2"), answer("A1", ["q1"]), answer("A2", ["q2"])];
    expect(labels(orderConversation(stored))).toEqual(["u:q1", "a:A1", "u:q2", "a:A2"]);
  });

  it("puts every message a merged turn answers right before that answer, in arrival order", () => {
    const stored = [user("q1"), user("q2"), user("q3"), answer("A", ["q2", "q3"]), answer("B", ["q1"])];
    expect(labels(orderConversation(stored))).toEqual(["u:q2", "u:q3", "a:A", "u:q1", "a:B"]);
  });

  it("keeps unanswered messages and answers without `answers` where they are, and moves an answered message forward to its answer", () => {
    const stored = [user("q1"), answer("old"), user("q2"), answer("A", ["q1"]), user("q3")];
    expect(labels(orderConversation(stored))).toEqual(["a:old", "u:q2", "u:q1", "a:A", "u:q3"]);
  });

  it("returns a copy when nothing names what it answers", () => {
    const stored = [user("q1"), answer("A")];
    const ordered = orderConversation(stored);
    expect(ordered).toEqual(stored);
    expect(ordered).not.toBe(stored);
  });
});

describe("orderForDisplay", () => {
  it("shows a message still waiting for its answer after the turn that was running when it arrived", () => {
    // q2 arrived while q1's turn ran (tool call and result included) and is not answered yet.
    const toolResult = { role: "toolResult", content: [{ type: "text", text: "R" }], timestamp: 0 } as unknown as TranscriptMessage;
    const stored = [user("q1"), user("q2"), answer("call", ["q1"]), toolResult, answer("A1")];
    expect(orderForDisplay(stored).map((m) => (m.role === "toolResult" ? "tool" : labels([m])[0]))).toEqual(["u:q1", "a:call", "tool", "a:A1", "u:q2"]);
    // Once answered it sits right before its answer, as orderConversation puts it.
    const answered = [...stored, answer("A2", ["q2"])];
    expect(labels(orderForDisplay(answered).filter((m) => m.role !== "toolResult"))).toEqual(["u:q1", "a:call", "a:A1", "u:q2", "a:A2"]);
    expect(orderForDisplay(answered)).toEqual(orderConversation(answered));
  });

  it("releases a waiting message before the next turn starts, and keeps arrival order among waiting messages", () => {
    const stored = [user("q1"), user("w1"), user("w2"), answer("A", ["q1"]), user("q3"), answer("B", ["q3"])];
    expect(labels(orderForDisplay(stored))).toEqual(["u:q1", "a:A", "u:w1", "u:w2", "u:q3", "a:B"]);
  });

  it("orders like orderConversation when no message waits behind an earlier one", () => {
    const stored = [user("q1"), answer("A", ["q1"]), user("q2"), user("q3"), answer("B", ["q2", "q3"])];
    expect(orderForDisplay(stored)).toEqual(orderConversation(stored));
  });
});
