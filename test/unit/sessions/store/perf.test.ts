import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeStateDir, openStore, sessionsDirOf } from "./helpers.js";

/**
 * Reported, not asserted: timings depend on the disk (every append is an fsync). Printed so a
 * reviewer can compare runs; the expectations only check that the work was done.
 */
describe("perf (reported)", () => {
  it("1,000 appendMessages calls of 2 messages", () => {
    const store = openStore(makeStateDir());
    const key = "agent:main:main";
    store.ensure(key);
    store.claimWriter(key, "run-1");
    const t0 = performance.now();
    for (let i = 0; i < 1_000; i += 1) {
      store.appendMessages(key, "run-1", [
        { role: "user", content: `message ${i}`, timestamp: i },
        { role: "assistant", content: [{ type: "text", text: `reply ${i}` }], timestamp: i },
      ]);
    }
    const appendMs = performance.now() - t0;
    const t1 = performance.now();
    const transcript = store.readTranscript(key);
    const readMs = performance.now() - t1;
    console.log(
      `[sessions perf] 1000 x appendMessages(2 msgs): ${appendMs.toFixed(0)} ms (${(appendMs / 1000).toFixed(2)} ms/call); ` +
        `readTranscript of ${transcript.entries.length} entries: ${readMs.toFixed(1)} ms`,
    );
    expect(transcript.entries).toHaveLength(2_000);
  });

  it("list() with 1,000 sessions; ensure() at that size", () => {
    const state = makeStateDir();
    const dir = sessionsDirOf(state);
    fs.mkdirSync(dir, { recursive: true });
    // Seeded directly (no fsync) so the setup stays fast; the store sees a normal state dir.
    const index: Record<string, unknown> = {};
    for (let i = 0; i < 1_000; i += 1) {
      const sessionKey = `agent:main:openai-user:u${i}`;
      const sessionId = randomUUID();
      const sessionFile = path.join(dir, `${sessionId}.jsonl`);
      fs.writeFileSync(
        sessionFile,
        `${JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: new Date(i).toISOString(), cwd: "/", sessionKey, agentId: "main" })}\n`,
      );
      index[sessionKey] = {
        sessionId,
        sessionKey,
        agentId: "main",
        sessionFile,
        updatedAt: i,
        sessionStartedAt: i,
        inputTokens: 0,
        outputTokens: 0,
        totalTokens: 0,
        messageCount: 0,
        label: `user ${i}`,
      };
    }
    fs.writeFileSync(path.join(dir, "sessions.json"), JSON.stringify(index));

    const store = openStore(state);
    const t0 = performance.now();
    const first = store.list();
    const openMs = performance.now() - t0;
    const t1 = performance.now();
    const second = store.list();
    const listMs = performance.now() - t1;
    const t2 = performance.now();
    for (let i = 0; i < 50; i += 1) store.ensure(`agent:main:new-${i}`);
    const ensureMs = (performance.now() - t2) / 50;
    console.log(
      `[sessions perf] first list() of ${first.length} (loads + checks the index): ${openMs.toFixed(1)} ms; ` +
        `list() of ${second.length}: ${listMs.toFixed(2)} ms; ensure() with ~1,000 sessions: ${ensureMs.toFixed(2)} ms/call`,
    );
    expect(second).toHaveLength(1_000);
    expect(second[0]!.sessionKey).toBe("agent:main:openai-user:u999");
  });
});
