import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../src/agents/types.js";
import { orderConversation } from "../../../src/conversations/conversation-order.js";

const user = (key: string): TranscriptMessage => ({ role: "user", content: key, timestamp: 0, idempotencyKey: key }) as TranscriptMessage;
const answer = (text: string, answers?: string[]): TranscriptMessage => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0, ...(answers ? { answers } : {}) }) as TranscriptMessage;
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
