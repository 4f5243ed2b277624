import os from "node:os";
import { describe, expect, it } from "vitest";
import { isWorkspaceWritable, memoryFlushDue, memoryFlushPrompt, type MemoryFlushState } from "../../../src/agents/compaction/memory-flush.js";
import { compactionThresholds, resolveCompactionSettings } from "../../../src/sessions/compaction/index.js";
import { defaultConfig } from "../../../src/config/index.js";

const settings = resolveCompactionSettings(defaultConfig());
const base: MemoryFlushState = {
  contextTokens: 177_000,
  thresholds: compactionThresholds(200_000, settings),
  settings,
  compactionCount: undefined,
  memoryFlushCompactionCount: undefined,
  runtimeTurn: false,
  workspaceWritable: () => true,
};

describe("memoryFlushDue", () => {
  it("flushes once the context passes window − reserve − soft threshold", () => {
    expect(memoryFlushDue(base)).toBe(true);
    expect(memoryFlushDue({ ...base, contextTokens: 175_000 })).toBe(false);
  });

  it("flushes at most once per compaction cycle", () => {
    expect(memoryFlushDue({ ...base, memoryFlushCompactionCount: 0 })).toBe(false);
    expect(memoryFlushDue({ ...base, compactionCount: 2, memoryFlushCompactionCount: 2 })).toBe(false);
    expect(memoryFlushDue({ ...base, compactionCount: 3, memoryFlushCompactionCount: 2 })).toBe(true);
  });

  it("skips runtime turns (heartbeats, announcements), read-only workspaces and disabled flushes", () => {
    expect(memoryFlushDue({ ...base, runtimeTurn: true })).toBe(false);
    expect(memoryFlushDue({ ...base, workspaceWritable: () => false })).toBe(false);
    expect(memoryFlushDue({ ...base, settings: { ...settings, memoryFlush: { enabled: false, softThresholdTokens: 4000 } } })).toBe(false);
  });

  it("tells the agent to append to today's file and answer NO_REPLY when there is nothing", () => {
    const prompt = memoryFlushPrompt(new Date(2026, 0, 5, 23, 30));
    expect(prompt).toContain("memory/2026-01-05.md");
    expect(prompt).toContain("Append only");
    expect(prompt).toContain("NO_REPLY");
  });

  it("sees whether a workspace can be written", () => {
    expect(isWorkspaceWritable(os.tmpdir())).toBe(true);
    expect(isWorkspaceWritable("/etc/hostname/not-a-dir")).toBe(false);
    expect(isWorkspaceWritable(undefined)).toBe(false);
  });
});
