import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { TraceStore, tracesDbPath } from "../../../src/traces/trace-store.js";
import type { TraceRecord } from "../../../src/traces/types.js";

/** A finished, successful chat run of the main agent with one model answer and nothing else; `over` changes any field. */
export function traceRecord(runId: string, over: Partial<TraceRecord> = {}): TraceRecord {
  return {
    runId,
    sessionKey: "agent:main:main",
    agentId: "main",
    source: "chat",
    startedAt: 1_000,
    endedAt: 1_010,
    durationMs: 10,
    outcome: "ok",
    model: "fake/m",
    input: ["hi"],
    modelCalls: [],
    toolCalls: [],
    thinking: [],
    output: "ok",
    usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 },
    compactions: [],
    ...over,
  };
}

/** Trace stores in temp dirs, closed and removed after each test of the file that calls this. */
export function useTempTraceStores(prefix: string): { open(): Promise<TraceStore>; dir(): string } {
  const stores: TraceStore[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const dir = () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(made);
    return made;
  };
  return {
    dir,
    async open() {
      const store = (await TraceStore.open(tracesDbPath(dir()), { create: true }))!;
      stores.push(store);
      return store;
    },
  };
}
