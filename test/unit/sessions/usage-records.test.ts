import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { UsageRecords } from "../../../src/sessions/usage/usage-records.js";

const answer = (model: string, input: number, timestamp: number) => ({
  role: "assistant" as const,
  content: [{ type: "text" as const, text: "ok" }],
  provider: "p",
  model,
  usage: { input, output: 10, cacheRead: 0, cacheWrite: 0 },
  stopReason: "stop" as const,
  timestamp,
});

describe("UsageRecords", () => {
  it("reads every agent's calls from live transcripts and reset archives, once each, within the range", () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "usage-records-"));
    const store = new SessionStore(stateDir);
    const day = Date.parse("2026-03-10T12:00:00Z");
    store.ensure("agent:main:a", { agentId: "main" });
    store.appendMessages("agent:main:a", null, [answer("m1", 100, day)]);
    store.reset("agent:main:a");
    store.appendMessages("agent:main:a", null, [answer("m1", 200, day + 1000)]);
    store.ensure("agent:helper:b", { agentId: "helper" });
    store.appendMessages("agent:helper:b", null, [answer("m2", 300, day + 2000), answer("m2", 999, day + 86_400_000 * 5)]);
    store.flush();
    const records = new UsageRecords(stateDir);
    const inRange = records.read({ startMs: day - 1000, endMs: day + 86_400_000 });
    expect(inRange.map((r) => [r.agentId, r.sessionKey, r.model, r.usage.input]).sort()).toEqual([
      ["helper", "agent:helper:b", "m2", 300],
      ["main", "agent:main:a", "m1", 100],
      ["main", "agent:main:a", "m1", 200],
    ]);
    expect(records.read({ startMs: 0, endMs: Number.MAX_SAFE_INTEGER, agentId: "helper" }).map((r) => r.usage.input)).toEqual([300, 999]);
    store.close();
  });
});
