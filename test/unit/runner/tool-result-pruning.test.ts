import { describe, expect, it } from "vitest";
import { planToolResultPruning, PRUNING } from "../../../src/agents/pruning/prune-tool-results.js";
import { parseDurationMs, PruningClock, resolvePruningSettings } from "../../../src/agents/pruning/pruning-settings.js";
import { ConversationWindow } from "../../../src/conversations/conversation-window.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { ModelMessage, TranscriptMessage } from "../../../src/agents/types.js";

const big = (n: number, mark: string) => `${mark}-head ${"x".repeat(n)} ${mark}-tail`;

/** n rounds of: user asks, assistant calls a tool, the tool returns `size` characters, assistant answers. */
function rounds(n: number, size: number): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  for (let i = 0; i < n; i += 1) {
    out.push({ role: "user", content: `question ${i}`, timestamp: i });
    out.push({ role: "assistant", content: [{ type: "toolCall", id: `c${i}`, name: i % 2 ? "exec" : "read", arguments: {} }], timestamp: i });
    out.push({ role: "toolResult", toolCallId: `c${i}`, toolName: i % 2 ? "exec" : "read", content: [{ type: "text", text: big(size, `r${i}`) }], isError: false, timestamp: i });
    out.push({ role: "assistant", content: [{ type: "text", text: `answer ${i}` }], timestamp: i });
  }
  return out;
}

const toolTexts = (messages: readonly (ModelMessage | undefined)[]) =>
  messages.filter((m): m is ModelMessage => m?.role === "toolResult").map((m) => (m.content[0] as { text: string }).text);

describe("tool-result pruning", () => {
  it("does nothing while the context is under 30% of the window", () => {
    const window = new ConversationWindow(rounds(6, 5_000));
    expect(window.rewriteToolResults((m, t) => planToolResultPruning(m, t, { windowTokens: 200_000 }))).toBe(0);
  });

  it("soft-trims big old results to head and tail, never the last three assistant turns, in memory only", () => {
    const transcript = rounds(6, 5_000);
    const window = new ConversationWindow(transcript);
    const before = window.contextTokens;
    const changed = window.rewriteToolResults((m, t) => planToolResultPruning(m, t, { windowTokens: 20_000 }));
    expect(changed).toBe(5);
    const texts = toolTexts(window.window(1_000_000, new Set()));
    for (const text of texts.slice(0, 5)) {
      expect(text.length).toBe(PRUNING.keepHeadChars + PRUNING.keepTailChars + 5);
      expect(text).toMatch(/^r\d-head/);
      expect(text).toMatch(/-tail$/);
    }
    // The last three assistant messages are round 4's answer and round 5's call and answer.
    expect(texts[5]!.length).toBeGreaterThan(5_000);
    expect(window.contextTokens).toBeLessThan(before);
    expect((transcript[2] as { content: { text: string }[] }).content[0]!.text.length).toBeGreaterThan(5_000);
  });

  it("hard-clears old results when trimming is not enough, honouring tools.deny and the placeholder", () => {
    const window = new ConversationWindow(rounds(40, 3_900));
    const changed = window.rewriteToolResults((m, t) => planToolResultPruning(m, t, { windowTokens: 50_000, tools: { deny: ["exec"] }, hardClear: { placeholder: "[gone]" } }));
    expect(changed).toBeGreaterThan(0);
    const results = window.window(1_000_000, new Set()).filter((m) => m.role === "toolResult") as Extract<ModelMessage, { role: "toolResult" }>[];
    expect(results.filter((m) => m.toolName === "exec").every((m) => (m.content[0] as { text: string }).text !== "[gone]")).toBe(true);
    expect(results.filter((m) => (m.content[0] as { text: string }).text === "[gone]").length).toBeGreaterThan(0);
    expect(window.contextTokens).toBeLessThan(50_000 * PRUNING.hardRatio + 2_000);
  });

  it("keeps hard-clear off when hardClear.enabled is false", () => {
    const window = new ConversationWindow(rounds(40, 3_900));
    window.rewriteToolResults((m, t) => planToolResultPruning(m, t, { windowTokens: 50_000, hardClear: { enabled: false } }));
    expect(toolTexts(window.window(1_000_000, new Set())).some((t) => t === PRUNING.placeholder)).toBe(false);
  });

  it("reads its settings and waits for the cache ttl since the last provider call", () => {
    expect(resolvePruningSettings(applyDefaults({}))).toBeUndefined();
    expect(resolvePruningSettings(applyDefaults({ agents: { defaults: { contextPruning: { mode: "cache-ttl" } } } }))?.ttlMs).toBe(300_000);
    expect(parseDurationMs("1h")).toBe(3_600_000);
    const clock = new PruningClock();
    expect(clock.due("s", 60_000, 1_000)).toBe(true);
    clock.touch("s", 1_000);
    expect(clock.due("s", 60_000, 30_000)).toBe(false);
    expect(clock.due("s", 60_000, 61_000)).toBe(true);
  });
});
