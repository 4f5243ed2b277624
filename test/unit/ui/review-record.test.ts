import { describe, expect, it } from "vitest";
import { withLabel, type ReviewItem } from "../../../ui/src/views/review-record.js";

const item: ReviewItem = {
  run: {
    runId: "r1",
    sessionKey: "agent:main:main",
    agentId: "main",
    source: "chat",
    startedAt: 1,
    durationMs: 5,
    outcome: "ok",
    inputTokens: 10,
    outputTokens: 2,
    modelCalls: 1,
    toolCalls: 0,
  },
  queuedAt: 2,
  reasons: ["high-cost"],
  totalTokens: 12,
  label: "pass",
  note: "old note",
  labelledAt: 3,
};

describe("withLabel: a label just given, shown in place", () => {
  it("replaces the label, its time and its note", () => {
    expect(withLabel(item, "fail", "loops on read", 9)).toMatchObject({ label: "fail", note: "loops on read", labelledAt: 9, reasons: ["high-cost"] });
  });

  it("a label without a note drops the old note, as the gateway stores it", () => {
    const labelled = withLabel(item, "fail", undefined, 9);
    expect(labelled.note).toBeUndefined();
    expect("note" in labelled).toBe(false);
  });
});
