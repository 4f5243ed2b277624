import { describe, expect, it } from "vitest";
import { extractInlineDirectives } from "../../../src/conversations/commands/inline-directives.js";

describe("inline directives", () => {
  it("takes /think, /verbose and /reasoning with their levels out of the message, wherever they stand", () => {
    expect(extractInlineDirectives("/think high fix the failing test")).toEqual({ text: "fix the failing test", levels: { thinkingLevel: "high" }, found: 1 });
    expect(extractInlineDirectives("fix it /t:low please")).toEqual({ text: "fix it please", levels: { thinkingLevel: "low" }, found: 1 });
    expect(extractInlineDirectives("summarize /verbose full and /reason on")).toEqual({
      text: "summarize and",
      levels: { verboseLevel: "full", reasoningLevel: "on" },
      found: 2,
    });
    expect(extractInlineDirectives("/THINKING XHigh go")).toMatchObject({ text: "go", levels: { thinkingLevel: "xhigh" } });
  });

  it("takes a directive out alone when the next word is not one of its levels; the first level of a kind counts", () => {
    expect(extractInlineDirectives("/think about this")).toEqual({ text: "about this", levels: {}, found: 1 });
    expect(extractInlineDirectives("/t high and /t low")).toEqual({ text: "and", levels: { thinkingLevel: "high" }, found: 2 });
  });

  it("leaves paths, URLs and words that only start like a directive alone", () => {
    for (const text of ["ls /tmp/thinking", "see https://x.test/think high", "a/think high", "/thinker high", "/vv on", "echo /reasoningX"]) {
      expect(extractInlineDirectives(text), text).toEqual({ text, levels: {}, found: 0 });
    }
  });

  it("a message of directives alone comes out empty, for the chat commands to take", () => {
    expect(extractInlineDirectives("/think high")).toEqual({ text: "", levels: { thinkingLevel: "high" }, found: 1 });
    expect(extractInlineDirectives("/think enormous")).toEqual({ text: "", levels: {}, found: 1 });
    expect(extractInlineDirectives("please /think enormous")).toEqual({ text: "please", levels: {}, found: 1 });
  });
});
