import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SubagentRunRecord } from "../../../src/agents/subagents/types.js";

export function tempStateDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-subagents-"));
}

export function makeRecord(overrides: Partial<SubagentRunRecord> = {}): SubagentRunRecord {
  const runId = overrides.runId ?? `run-${Math.random().toString(36).slice(2)}`;
  return {
    runId,
    childSessionKey: `agent:main:subagent:${runId}`,
    requesterSessionKey: "agent:main:main",
    agentId: "main",
    task: "do it",
    cleanup: "keep",
    spawnMode: "run",
    expectsCompletionMessage: true,
    senderIsOwner: true,
    depth: 1,
    createdAt: Date.now(),
    accumulatedRuntimeMs: 0,
    runs: { total: 0, ok: 0, failed: 0 },
    currentRunId: runId,
    round: 1,
    roundOpen: true,
    roundStartedAt: Date.now(),
    steerCount: 0,
    ...overrides,
  };
}
