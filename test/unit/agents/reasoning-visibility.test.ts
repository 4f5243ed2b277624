import { describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { reasoningLevelFor, reasoningOf } from "../../../src/agents/reasoning-visibility.js";

const config = (defaults: Record<string, unknown>, entries: Record<string, unknown> = {}) => ({ agents: { defaults, entries } }) as unknown as OpenClawConfig;

describe("a turn's reasoning level", () => {
  it("is the session's choice, for any sender", () => {
    expect(reasoningLevelFor(config({ reasoningDefault: "on" }), "main", "off", true)).toBe("off");
    expect(reasoningLevelFor(config({}), "main", "stream", false)).toBe("stream");
  });

  it("else the agent's reasoningDefault, then the defaults', for the owner only", () => {
    const withBoth = config({ reasoningDefault: "stream" }, { coder: { reasoningDefault: "on" } });
    expect(reasoningLevelFor(withBoth, "coder", undefined, true)).toBe("on");
    expect(reasoningLevelFor(withBoth, "main", undefined, true)).toBe("stream");
    expect(reasoningLevelFor(withBoth, "coder", undefined, false)).toBe("off");
    expect(reasoningLevelFor(config({}), "main", undefined, true)).toBe("off");
  });

  it("the reasoning shown is every reply's thinking of the run, in order, blank ones left out", () => {
    const reply = (thinking: string) => ({
      role: "assistant" as const,
      content: [
        { type: "thinking" as const, thinking },
        { type: "text" as const, text: "x" },
      ],
      provider: "p",
      model: "m",
      timestamp: 0,
    });
    expect(reasoningOf([{ role: "user", content: "q", timestamp: 0 }, reply("first"), reply("  "), reply("second")] as never)).toBe("first\n\nsecond");
  });
});
