import { describe, expect, it, vi } from "vitest";
import { type TextEmbedder, TraceEmbedding } from "../../../src/traces/meaning/trace-embedding.js";
import { traceRecord, useTempTraceStores } from "./trace-fixtures.js";
import type { TraceRecord } from "../../../src/traces/types.js";

const stores = useTempTraceStores("meaning-");
const openStore = () => stores.open();
const record = (runId: string, output: string, startedAt: number): TraceRecord => traceRecord(runId, { output, startedAt, endedAt: startedAt + 10 });

const vector = (...values: number[]) => Float32Array.from(values);
const quietLogger = { info: () => {}, warn: vi.fn(), debug: () => {}, error: () => {} };

describe("trace vectors", () => {
  it("ranks by cosine within one embedder, counts coverage, and drops a vector when its trace is rewritten or deleted", async () => {
    const store = await openStore();
    store.write([{ record: record("a", "alpha", 1) }, { record: record("b", "beta", 2) }, { record: record("c", "gamma", 3) }]);
    expect(store.vectors.unembedded("m1", 10).map((t) => t.runId)).toEqual(["c", "b", "a"]);
    store.vectors.put("a", "m1", vector(1, 0));
    store.vectors.put("b", "m1", vector(0.6, 0.8));
    store.vectors.put("c", "m2", vector(1, 0));
    store.vectors.put("gone", "m1", vector(1, 0));
    expect(store.vectors.coverage("m1")).toEqual({ embedded: 2, traces: 3 });
    expect(store.vectors.unembedded("m1", 10).map((t) => t.runId)).toEqual(["c"]);
    const near = store.vectors.nearest("m1", vector(0, 2), { limit: 5 });
    expect(near.map((hit) => [hit.runId, Number(hit.score.toFixed(3))])).toEqual([
      ["b", 0.8],
      ["a", 0],
    ]);
    expect(store.vectors.nearest("m1", vector(1, 0), { limit: 1 }).map((hit) => hit.runId)).toEqual(["a"]);
    expect(store.vectors.nearest("m1", vector(1, 0, 0), { limit: 5 })).toEqual([]);

    store.write([{ record: record("b", "beta, rewritten", 2) }]);
    expect(store.vectors.unembedded("m1", 10).map((t) => t.runId)).toEqual(["c", "b"]);
    store.prune({ retentionDays: 1, maxBytes: 1 << 30, now: 86_400_000 + 1.5 });
    expect(store.vectors.coverage("m1")).toEqual({ embedded: 0, traces: 2 });
  });
});

describe("TraceEmbedding", () => {
  it("embeds every trace in batches, newest first; a failed request ends the pass and the next kick goes on", async () => {
    const store = await openStore();
    store.write(Array.from({ length: 20 }, (_, i) => ({ record: record(`r${i}`, `trace ${i}`, i) })));
    const batches: string[][] = [];
    let fail = true;
    const embedder: TextEmbedder = {
      key: "fake",
      embed: async (texts) => {
        batches.push(texts);
        if (fail && batches.length === 2) throw Object.assign(new Error("no answer from the provider"), { kind: "unreachable" });
        return texts.map(() => vector(1, 1));
      },
    };
    quietLogger.warn.mockClear();
    const worker = new TraceEmbedding({ embedder: () => embedder, vectors: async () => store.vectors, logger: quietLogger as never });
    worker.kick();
    await vi.waitFor(() => expect(quietLogger.warn).toHaveBeenCalledTimes(1));
    expect(batches.map((b) => b.length)).toEqual([16, 4]);
    expect(batches[0]![0]).toContain("trace 19");
    expect(store.vectors.coverage("fake")).toEqual({ embedded: 16, traces: 20 });
    expect(quietLogger.warn.mock.calls[0]![0]).toEqual({ err: "no answer from the provider" });

    fail = false;
    worker.kick();
    await vi.waitFor(() => expect(store.vectors.coverage("fake")).toEqual({ embedded: 20, traces: 20 }));
    await worker.close();
    expect(batches).toHaveLength(3);
  });

  it("a text the provider refuses alone is set aside so the rest go on; a provider that does not answer is not asked text by text", async () => {
    const store = await openStore();
    store.write([{ record: record("ok-1", "fine", 1) }, { record: record("poison", "POISON", 2) }, { record: record("ok-2", "also fine", 3) }]);
    const calls: number[] = [];
    let down = false;
    const embedder: TextEmbedder = {
      key: "fake",
      embed: async (texts) => {
        calls.push(texts.length);
        if (down) throw Object.assign(new Error("no answer from the provider"), { kind: "unreachable" });
        if (texts.some((t) => t.includes("POISON"))) throw Object.assign(new Error("HTTP 400: input rejected"), { kind: "bad-response" });
        return texts.map(() => vector(1, 0));
      },
    };
    quietLogger.warn.mockClear();
    const worker = new TraceEmbedding({ embedder: () => embedder, vectors: async () => store.vectors, logger: quietLogger as never });
    worker.kick();
    await vi.waitFor(() => expect(store.vectors.unembedded("fake", 10)).toEqual([]));
    expect(calls).toEqual([3, 1, 1, 1]);
    expect(store.vectors.coverage("fake")).toEqual({ embedded: 2, traces: 3 });
    expect(
      store.vectors
        .nearest("fake", vector(1, 0), { limit: 5 })
        .map((hit) => hit.runId)
        .sort(),
    ).toEqual(["ok-1", "ok-2"]);
    expect(quietLogger.warn).not.toHaveBeenCalled();

    down = true;
    store.write([{ record: record("later-1", "x", 4) }, { record: record("later-2", "y", 5) }]);
    calls.length = 0;
    worker.kick();
    await vi.waitFor(() => expect(quietLogger.warn).toHaveBeenCalledTimes(1));
    await worker.close();
    expect(calls).toEqual([2]);
    expect(store.vectors.unembedded("fake", 10).map((t) => t.runId)).toEqual(["later-2", "later-1"]);
  });
});
