import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { TraceStore } from "../../../src/traces/index.js";
import type { TraceRecord } from "../../../src/traces/types.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function dbFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trace-search-"));
  dirs.push(dir);
  return path.join(dir, "traces.sqlite");
}

function record(runId: string, over: Partial<TraceRecord> = {}): TraceRecord {
  return {
    runId,
    sessionKey: "agent:main:main",
    agentId: "main",
    source: "chat",
    startedAt: Date.now(),
    endedAt: Date.now(),
    durationMs: 5,
    outcome: "ok",
    input: ["hello"],
    modelCalls: [],
    toolCalls: [],
    thinking: [],
    output: "ok",
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    compactions: [],
    ...over,
  };
}

const runIds = (store: TraceStore, query: string) => store.search({ query })?.map((hit) => hit.runId);

describe("trace search", () => {
  it("finds a trace by its message, thinking, tool call or reply, every word required, diacritics folded", async () => {
    const store = (await TraceStore.open(dbFile(), { create: true }))!;
    const toolCall = { id: "c1", name: "exec", args: { command: "kubectl apply -f staging.yaml" }, startedAt: 1, decision: "allowed" as const, resultChars: 3, resultHead: "ok" };
    store.write([
      { record: record("r1", { input: ["Deploy the café menu"], thinking: ["the user wants staging"], toolCalls: [toolCall], output: "Deployed." }) },
      { record: record("r2", { input: ["What is the capital of France?"], output: "Paris." }) },
    ]);
    expect(runIds(store, "kubectl staging")).toEqual(["r1"]);
    expect(runIds(store, "cafe")).toEqual(["r1"]);
    expect(runIds(store, "paris capital")).toEqual(["r2"]);
    expect(runIds(store, "paris kubectl")).toEqual([]);
    expect(runIds(store, '"capital of France"')).toEqual(["r2"]);
    expect(store.search({ query: "kubectl" })![0]!.snippet).toContain("kubectl apply -f staging.yaml");
    expect(store.search({ query: "&& ( *" })).toBeUndefined();
    store.close();
  });

  it("a trace written again is found by its new words only; a deleted one is not found", async () => {
    const store = (await TraceStore.open(dbFile(), { create: true }))!;
    store.write([{ record: record("r1", { output: "first draft", startedAt: Date.now() - 30 * 86_400_000 }) }]);
    store.write([{ record: record("r1", { output: "second answer", startedAt: Date.now() - 30 * 86_400_000 }) }]);
    expect(runIds(store, "draft")).toEqual([]);
    expect(runIds(store, "second")).toEqual(["r1"]);
    expect(store.prune({ retentionDays: 14, maxBytes: 1 << 30, now: Date.now() })).toBe(1);
    expect(runIds(store, "second")).toEqual([]);
    store.close();
  });

  it("a store made before the index gets one, filled from the traces it holds", async () => {
    const file = dbFile();
    const store = (await TraceStore.open(file, { create: true }))!;
    store.write([{ record: record("old", { output: "remembered words" }) }]);
    store.close();
    const raw = new Database(file);
    raw.exec("DROP TRIGGER traces_fts_removed; DROP TABLE traces_fts;");
    raw.close();
    const reopened = (await TraceStore.open(file, { create: false }))!;
    expect(runIds(reopened, "remembered")).toEqual(["old"]);
    reopened.close();
  });
});
