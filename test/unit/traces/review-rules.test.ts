import { describe, expect, it } from "vitest";
import { traceRecord, useTempTraceStores } from "./trace-fixtures.js";
import { reviewReasons } from "../../../src/traces/review/review-rules.js";
import type { ReviewSettings } from "../../../src/traces/review/review-settings.js";
import type { TraceRecord } from "../../../src/traces/types.js";

const HOUR = 3_600_000;
const at = (hours: number, minutes = 0) => new Date(2026, 11, 7, hours, minutes).getTime();

const record = (over: Partial<TraceRecord> = {}): TraceRecord => traceRecord("r1", { startedAt: at(12), endedAt: at(12), ...over });

const settings = (over: Partial<ReviewSettings> = {}): ReviewSettings => ({
  enabled: true,
  sampleRate: 0,
  highCostTokens: 1000,
  newModelMs: 48 * HOUR,
  newPromptMs: 48 * HOUR,
  ...over,
});

describe("reviewReasons", () => {
  it("queues by cost (cache tokens count), a model the agent began using within the window, and the sample only when no rule did", () => {
    const costly = record({ usage: { input: 400, output: 100, cacheRead: 400, cacheWrite: 100 } });
    expect(reviewReasons(costly, settings(), { draw: 0.5 })).toEqual(["high-cost"]);
    expect(reviewReasons(record(), settings(), { draw: 0.5, modelFirstSeenAt: at(12) - 47 * HOUR })).toEqual(["new-model"]);
    expect(reviewReasons(record(), settings(), { draw: 0.5, modelFirstSeenAt: at(12) - 48 * HOUR })).toEqual([]);
    expect(reviewReasons(costly, settings({ sampleRate: 1 }), { draw: 0 })).toEqual(["high-cost"]);
    expect(reviewReasons(record(), settings({ sampleRate: 0.1 }), { draw: 0.05 })).toEqual(["sampled"]);
    expect(reviewReasons(record(), settings({ sampleRate: 0.1 }), { draw: 0.1 })).toEqual([]);
  });

  it("0 turns a rule off; disabled or a runtime message queues nothing", () => {
    const costly = record({ usage: { input: 5000, output: 0, cacheRead: 0, cacheWrite: 0 } });
    expect(reviewReasons(costly, settings({ highCostTokens: 0, newModelMs: 0, newPromptMs: 0 }), { draw: 0.9, modelFirstSeenAt: at(12), promptFirstSeenAt: at(12) })).toEqual([]);
    expect(reviewReasons(costly, settings({ enabled: false }), { draw: 0 })).toEqual([]);
    expect(reviewReasons(record({ ...costly, source: "internal" }), settings({ sampleRate: 1 }), { draw: 0 })).toEqual([]);
  });

  it("samples only inside the daily window, which may cross midnight", () => {
    const night = settings({ sampleRate: 1, sampleWindow: { start: 22 * 60, end: 2 * 60 } });
    expect(reviewReasons(record({ startedAt: at(23, 30) }), night, { draw: 0 })).toEqual(["sampled"]);
    expect(reviewReasons(record({ startedAt: at(1, 59) }), night, { draw: 0 })).toEqual(["sampled"]);
    expect(reviewReasons(record({ startedAt: at(2) }), night, { draw: 0 })).toEqual([]);
    const morning = settings({ sampleRate: 1, sampleWindow: { start: 9 * 60, end: 10 * 60 } });
    expect(reviewReasons(record({ startedAt: at(9) }), morning, { draw: 0 })).toEqual(["sampled"]);
    expect(reviewReasons(record({ startedAt: at(12) }), morning, { draw: 0 })).toEqual([]);
  });
});

describe("routing by prompt version", () => {
  const stores = useTempTraceStores("prompt-rule-");

  it("an agent's first version is its baseline; a later one queues every run for newPromptHours", async () => {
    const store = await stores.open();
    {
      const rules = settings({ newModelMs: 0 });
      let n = 0;
      const route = (agentId: string, promptVersion: string | undefined, startedAt: number): string[] => {
        const run = record({ runId: `r${++n}`, agentId, startedAt, endedAt: startedAt, ...(promptVersion ? { promptVersion } : {}) });
        store.write([{ record: run }]);
        store.reviews.route([run], rules, () => 0.99, startedAt);
        return store.reviews.list("all", 100).find((item) => item.run.runId === run.runId)?.reasons ?? [];
      };
      expect(route("main", "v1", at(8))).toEqual([]);
      expect(route("main", "v1", at(9))).toEqual([]);
      expect(route("main", undefined, at(9))).toEqual([]);
      expect(route("main", "v2", at(10))).toEqual(["new-prompt"]);
      expect(route("main", "v2", at(10) + 47 * HOUR)).toEqual(["new-prompt"]);
      expect(route("main", "v2", at(10) + 48 * HOUR)).toEqual([]);
      // Going back to a version seen before is no change to review.
      expect(route("main", "v1", at(11) + 48 * HOUR)).toEqual([]);
      // Versions are per agent: another agent's first is its own baseline.
      expect(route("ops", "v2", at(12))).toEqual([]);
      expect(route("ops", "v3", at(13))).toEqual(["new-prompt"]);
    }
  });
});
