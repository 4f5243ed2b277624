import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../../src/config/index.js";
import { responsePrefixFor, withResponsePrefix } from "../../../../src/channels/outbound/response-prefix.js";

const config = (messages: Record<string, unknown>, name?: string) =>
  validateConfig({ messages, ...(name ? { agents: { entries: { main: { identity: { name } } } } } : {}) }, {}).config;

describe("responsePrefix", () => {
  it("the account's (or channel's) wins over messages.responsePrefix; auto is [identity.name], nothing without one", () => {
    expect(responsePrefixFor(config({ responsePrefix: "[bot]" }), "main", undefined, {})).toBe("[bot]");
    expect(responsePrefixFor(config({ responsePrefix: "[bot]" }), "main", "[tg]", {})).toBe("[tg]");
    expect(responsePrefixFor(config({ responsePrefix: "auto" }, "Claw"), "main", undefined, {})).toBe("[Claw]");
    expect(responsePrefixFor(config({ responsePrefix: "auto" }), "main", undefined, {})).toBeUndefined();
    expect(responsePrefixFor(config({}), "main", undefined, {})).toBeUndefined();
  });

  it("fills {model} (short), {modelFull}, {provider}, {thinkingLevel}/{think}, {identity.name}; an unknown name stays", () => {
    const prefix = responsePrefixFor(config({ responsePrefix: "{provider}|{model}|{modelFull}|{think}|{thinkingLevel}|{identity.name}|{mood}" }, "Claw"), "main", undefined, {
      model: "anthropic/claude-sonnet-4-20250514",
      thinkingLevel: "high",
    });
    expect(prefix).toBe("anthropic|claude-sonnet-4|anthropic/claude-sonnet-4-20250514|high|high|Claw|{mood}");
  });

  it("goes before the text once, never before the heartbeat's ack", () => {
    expect(withResponsePrefix("hello", "[Claw]")).toBe("[Claw] hello");
    expect(withResponsePrefix("[Claw] hello", "[Claw]")).toBe("[Claw] hello");
    expect(withResponsePrefix("HEARTBEAT_OK", "[Claw]")).toBe("HEARTBEAT_OK");
    expect(withResponsePrefix("hello", undefined)).toBe("hello");
  });
});
