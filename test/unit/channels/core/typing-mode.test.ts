import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../../src/agents/types.js";
import { startsTyping, typingIntervalMs, typingModeFor } from "../../../../src/channels/outbound/typing-mode.js";
import { applyDefaults } from "../../../../src/config/defaults.js";

const config = (raw: Record<string, unknown>) => applyDefaults(raw as never);
const update = (kind: "text" | "thinking") => ({ type: "message_update", message: {}, delta: { kind, text: "x" } }) as unknown as AgentEvent;

describe("typing mode", () => {
  it("the agent's own mode, else the defaults', else instant for DMs and mentions and message for other group messages", () => {
    const none = config({});
    expect(typingModeFor(none, "main", { chatType: "direct", wasMentioned: false })).toBe("instant");
    expect(typingModeFor(none, "main", { chatType: "group", wasMentioned: true })).toBe("instant");
    expect(typingModeFor(none, "main", { chatType: "group", wasMentioned: false })).toBe("message");
    const set = config({ agents: { defaults: { typingMode: "thinking" }, entries: { main: { default: true }, ops: { typingMode: "never" } } } });
    expect(typingModeFor(set, "main", { chatType: "direct", wasMentioned: false })).toBe("thinking");
    expect(typingModeFor(set, "ops", { chatType: "direct", wasMentioned: false })).toBe("never");
  });

  it("thinking starts at any model output, message at its first text; nothing else starts either", () => {
    expect(startsTyping("thinking", update("thinking"))).toBe(true);
    expect(startsTyping("thinking", update("text"))).toBe(true);
    expect(startsTyping("message", update("thinking"))).toBe(false);
    expect(startsTyping("message", update("text"))).toBe(true);
    expect(startsTyping("message", { type: "agent_start", runId: "r", startedAt: 0 })).toBe(false);
  });

  it("the refresh: the channel's typingIntervalSeconds, else the agents' default, else 6 s", () => {
    expect(typingIntervalMs(config({}), {})).toBe(6000);
    expect(typingIntervalMs(config({ agents: { defaults: { typingIntervalSeconds: 3 } } }), {})).toBe(3000);
    expect(typingIntervalMs(config({ agents: { defaults: { typingIntervalSeconds: 3 } } }), { typingIntervalSeconds: 0 })).toBe(0);
  });
});
