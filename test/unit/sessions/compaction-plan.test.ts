import { describe, expect, it } from "vitest";
import {
  compactionThresholds,
  extractIdentifiers,
  guardedIdentifiers,
  planCompaction,
  resolveCompactionSettings,
  type PlannedMessage,
} from "../../../src/sessions/compaction/index.js";
import { defaultConfig } from "../../../src/config/index.js";

const user = (id: string, text: string, tokens = 10): PlannedMessage => ({ id, message: { role: "user", content: text, timestamp: 0 }, tokens });
const said = (id: string, text: string, tokens = 10): PlannedMessage => ({ id, message: { role: "assistant", content: [{ type: "text", text }], timestamp: 0 }, tokens });
const calls = (id: string, tokens = 10): PlannedMessage => ({
  id,
  message: { role: "assistant", content: [{ type: "toolCall", id: `c${id}`, name: "read", arguments: {} }], timestamp: 0 },
  tokens,
});
const result = (id: string, tokens = 10): PlannedMessage => ({
  id,
  message: { role: "toolResult", toolCallId: `c${id}`, toolName: "read", content: [{ type: "text", text: "x" }], isError: false, timestamp: 0 },
  tokens,
});

describe("planCompaction", () => {
  const conversation = [user("u1", "a"), said("a1", "b"), user("u2", "c"), said("a2", "d"), user("u3", "e"), said("a3", "f"), user("u4", "g"), said("a4", "h")];

  it("keeps the newest tokens and at least three turns, and summarizes the rest", () => {
    const plan = planCompaction(conversation, { keepRecentTokens: 15, minRecentTurns: 3 });
    expect(plan.ok && plan.firstKeptEntryId).toBe("u2");
    expect(plan.ok && plan.summarize.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(plan.ok && plan.keptTokens).toBe(60);
  });

  it("keeps more than three turns when keepRecentTokens asks for it", () => {
    const plan = planCompaction(conversation, { keepRecentTokens: 65, minRecentTurns: 3 });
    expect(plan.ok && plan.firstKeptEntryId).toBe("a1");
  });

  it("never cuts between a tool call and its results", () => {
    const withTools = [user("u1", "a"), said("a1", "b"), user("u2", "c"), calls("t1"), result("r1", 50), result("r2", 50), said("a2", "d"), user("u3", "e"), said("a3", "f")];
    const plan = planCompaction(withTools, { keepRecentTokens: 60, minRecentTurns: 1 });
    expect(plan.ok && plan.firstKeptEntryId).toBe("t1");
    expect(plan.ok && plan.summarize.map((m) => m.id)).toEqual(["u1", "a1", "u2"]);
  });

  it("keeps an unfinished run's prompt and everything after it", () => {
    const plan = planCompaction(conversation, { keepRecentTokens: 1, minRecentTurns: 1, keepFrom: 4 });
    expect(plan.ok && plan.firstKeptEntryId).toBe("u3");
  });

  it("refuses when the conversation is no longer than what is kept", () => {
    expect(planCompaction(conversation.slice(0, 4), { keepRecentTokens: 15, minRecentTurns: 3 })).toMatchObject({ ok: false });
    expect(planCompaction(conversation, { keepRecentTokens: 1_000, minRecentTurns: 3 })).toMatchObject({ ok: false });
  });
});

describe("compactionThresholds", () => {
  const settings = resolveCompactionSettings(defaultConfig());

  it("compacts 20,000 tokens below a large window and flushes memory 4,000 before that", () => {
    expect(compactionThresholds(200_000, settings)).toMatchObject({ compactAt: 180_000, flushAt: 176_000, keepRecentTokens: 20_000 });
  });

  it("caps the reserve and the kept tail against a small window", () => {
    const small = compactionThresholds(8_000, settings);
    expect(small.compactAt).toBe(6_000);
    expect(small.keepRecentTokens).toBe(3_000);
    expect(small.flushAt).toBe(5_000);
  });
});

describe("identifiers", () => {
  it("finds URLs, paths, ids and long numbers, not ordinary words", () => {
    const found = extractIdentifiers(
      'See https://example.com/a?b=1&c=2, file src/app/main.ts and /etc/hosts. Invoice INV-2024-0042 costs 1234.50 on read({"path":"/a/b.txt"}) id 9f8e7d6c at 3pm.',
    );
    expect(found).toEqual(["https://example.com/a?b=1&c=2", "src/app/main.ts", "/etc/hosts", "INV-2024-0042", "1234.50", "/a/b.txt", "9f8e7d6c"]);
  });

  it("guards the newest identifiers of user and assistant messages and of the previous summary", () => {
    const ids = guardedIdentifiers(
      [
        { role: "user", content: "order ORD-1111 please", timestamp: 0 },
        { role: "toolResult", toolCallId: "x", toolName: "read", content: [{ type: "text", text: "log 99999 88888" }], isError: false, timestamp: 0 },
        { role: "assistant", content: [{ type: "text", text: "shipped to /srv/out.csv" }], timestamp: 0 },
      ],
      "earlier: ticket T-20231",
    );
    expect(ids).toEqual(["/srv/out.csv", "ORD-1111", "T-20231"]);
  });
});
