import { describe, expect, it } from "vitest";
import { ChatLog } from "../../../../src/cli/tui/chat-log.js";
import { compactCount, footerLine, sessionFacts } from "../../../../src/cli/tui/footer.js";
import { historyEntries } from "../../../../src/cli/tui/message-text.js";

const shown = (log: ChatLog) => log.entries().map(({ kind, text }) => `${kind}: ${text}`);

describe("ChatLog", () => {
  it("a run's deltas grow one reply in place; the cumulative text wins; the final text replaces it", () => {
    const log = new ChatLog();
    log.add("user", "hi");
    log.streamDelta("r1", "Hel", false);
    log.streamDelta("r1", "lo", false);
    expect(shown(log)).toEqual(["user: hi", "assistant: Hello"]);
    log.streamText("r1", "Hello there");
    expect(log.finish("r1", "Hello there!")).toBe(true);
    expect(shown(log)).toEqual(["user: hi", "assistant: Hello there!"]);
    // A late delta or a second end changes nothing.
    log.streamDelta("r1", "again", false);
    expect(log.finish("r1", "other")).toBe(false);
    expect(shown(log)).toEqual(["user: hi", "assistant: Hello there!"]);
  });

  it("a new message after tool calls starts over below the tool lines", () => {
    const log = new ChatLog();
    log.streamDelta("r1", "Let me look", false);
    log.toolStarted("t1", "read {}");
    log.toolEnded("t1", "(done)");
    log.streamDelta("r1", "Found it", true);
    log.finish("r1");
    expect(shown(log)).toEqual(["tool: read {} (done)", "assistant: Found it"]);
  });

  it("a run that ends with no text leaves no empty reply", () => {
    const log = new ChatLog();
    log.streamDelta("r1", "", false);
    log.finish("r1", "");
    expect(shown(log)).toEqual([]);
  });
});

describe("historyEntries", () => {
  it("user and assistant text, a line per tool call, command answers as notices; tool results left out", () => {
    const entries = historyEntries([
      { role: "user", content: "read it" },
      { role: "assistant", content: [{ type: "toolCall", name: "read", arguments: { path: "a.txt" } }] },
      { role: "toolResult", content: [{ type: "text", text: "file body" }] },
      { role: "assistant", content: [{ type: "text", text: "It says hi." }] },
      { role: "assistant", content: [{ type: "text", text: "Status ..." }], command: true },
    ]);
    expect(entries).toEqual([
      { kind: "user", text: "read it" },
      { kind: "tool", text: 'read {"path":"a.txt"}' },
      { kind: "assistant", text: "It says hi." },
      { kind: "system", text: "Status ..." },
    ]);
  });
});

describe("footer", () => {
  it("agent, model, thinking, tokens, context, session, and deliver when on", () => {
    const facts = sessionFacts({ modelProvider: "fake", model: "m", thinkingLevel: "low", inputTokens: 1234, outputTokens: 56, totalTokens: 2100, contextTokens: 120000 });
    expect(footerLine("main", "agent:main:main", facts, false)).toBe("agent main | model fake/m | think low | tokens 1.2k in/56 out | ctx 2.1k/120k | session agent:main:main");
    expect(footerLine("main", "agent:main:x", sessionFacts(null), true)).toBe("agent main | model default | think default | tokens 0 in/0 out | session agent:main:x | deliver on");
    // The session's goal sits after the model, in OpenClaw's footer words.
    const withGoal = sessionFacts({ model: "m", goal: { status: "active", tokensUsed: 12_000, tokenBudget: 50_000 } });
    expect(footerLine("main", "agent:main:x", withGoal, false)).toBe("agent main | model m | Pursuing goal (12k/50k) | think default | tokens 0 in/0 out | session agent:main:x");
    expect(
      ["paused", "blocked", "usage_limited", "budget_limited", "complete"].map((status) => sessionFacts({ goal: { status, tokensUsed: 42_000, tokenBudget: 42_000 } }).goal),
    ).toEqual(["Goal paused (/goal resume)", "Goal blocked (/goal resume)", "Goal hit usage limits (/goal resume)", "Goal unmet (42k/42k)", "Goal achieved (42k)"]);
    expect(sessionFacts({ goal: { status: "active", tokensUsed: 5 } }).goal).toBe("Pursuing goal");
    expect(compactCount(1_500_000)).toBe("1.5M");
  });
});
