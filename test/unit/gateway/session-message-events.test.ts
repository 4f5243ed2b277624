import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../src/agents/types.js";
import { SessionMessageEvents } from "../../../src/gateway/session-message-events.js";

const user = (text: string) => ({ role: "user", content: text, timestamp: 1 }) as TranscriptMessage;
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 2 }) as unknown as TranscriptMessage;

function recorder() {
  const sent: { event: string; payload: Record<string, unknown>; to: string[] }[] = [];
  const events = new SessionMessageEvents((event, payload, connIds) => sent.push({ event, payload, to: [...connIds].sort() }));
  return { sent, events };
}

describe("SessionMessageEvents", () => {
  it("sends each shown message to the session's followers only, NO_REPLY, system lines and input marked display: false left out", () => {
    const { sent, events } = recorder();
    events.subscribe("a", "agent:main:one");
    events.subscribe("b", "agent:main:one");
    events.subscribe("c", "agent:work:two");
    events.appended(
      "agent:main:one",
      [
        { id: "e1", message: user("hi") },
        { id: "e2", message: assistant("NO_REPLY") },
        { id: "e3", message: { role: "system", content: "x" } as unknown as TranscriptMessage },
        { id: "e4", message: assistant("hello") },
        { id: "e5", message: { ...user("Continue pursuing the current goal."), display: false } as TranscriptMessage },
      ],
      "run-1",
    );
    expect(sent.map((s) => [s.payload.messageId, s.to])).toEqual([
      ["e1", ["a", "b"]],
      ["e4", ["a", "b"]],
    ]);
    expect(sent[0]).toMatchObject({
      event: "session.message",
      payload: { sessionKey: "agent:main:one", agentId: "main", runId: "run-1", message: { role: "user", content: [{ type: "text", text: "hi" }], __openclaw: { id: "e1" } } },
    });
    events.appended("agent:work:two", [{ id: "w1", message: user("yo") }], null);
    expect(sent.at(-1)).toMatchObject({ to: ["c"], payload: { agentId: "work", messageId: "w1" } });
    expect(sent.at(-1)!.payload).not.toHaveProperty("runId");
  });

  it("an unsubscribed or closed connection gets nothing, and a session nobody follows builds nothing", () => {
    const { sent, events } = recorder();
    events.subscribe("a", "agent:main:one");
    events.subscribe("a", "agent:main:two");
    events.subscribe("b", "agent:main:one");
    events.unsubscribe("b", "agent:main:one");
    events.forget("a");
    let read = 0;
    const watched = {
      id: "e1",
      get message() {
        read++;
        return user("hi");
      },
    };
    events.appended("agent:main:one", [watched], null);
    events.appended("agent:main:two", [watched], null);
    expect(sent).toEqual([]);
    expect(read).toBe(0);
  });
});
