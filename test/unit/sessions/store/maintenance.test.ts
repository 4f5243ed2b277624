import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { TranscriptMessage } from "../../../../src/agents/types.js";
import { loadHistory } from "../../../helpers/history-oracle.js";
import { StaleWriterError, WITHDRAWN_CUSTOM_TYPE, withdrawalEntry, type AgentPrune } from "../../../../src/sessions/store/index.js";
import { filesIn, makeStateDir, openStore, readIndex, readLines, sessionsDirOf } from "./helpers.js";

const KEY = "agent:main:main";

/** The keys a prune archived, over every agent. */
const archivedBy = (result: AgentPrune[]) => result.flatMap((a) => a.verdicts.filter((v) => v.action !== "keep").map((v) => v.key));

describe("prune", () => {
  it("removes sessions idle longer than maxAgeMs, archiving their transcripts, but keeps active and pinned ones", () => {
    const state = makeStateDir();
    let now = 1_000;
    const store = openStore(state, { now: () => now });
    const stale = store.ensure("agent:main:stale");
    store.ensure("agent:main:running");
    store.claimWriter("agent:main:running", "run-1");
    store.ensure("agent:main:pinned");
    store.patch("agent:main:pinned", { pinnedAt: 1 });
    now = 50_000;
    store.ensure("agent:main:fresh");

    now = 60_000;
    expect(archivedBy(store.prune({ maxAgeMs: 30_000 }))).toEqual(["agent:main:stale"]);
    expect(Object.keys(readIndex(state)).sort()).toEqual(["agent:main:fresh", "agent:main:pinned", "agent:main:running"]);
    expect(filesIn(sessionsDirOf(state)).some((f) => f.startsWith(`${path.basename(stale.sessionFile)}.deleted.`))).toBe(true);
    expect(fs.existsSync(stale.sessionFile)).toBe(false);
  });

  it("keeps at most maxEntries per agent, removing the least recently updated first", () => {
    const state = makeStateDir();
    let now = 0;
    const store = openStore(state, { now: () => now });
    for (const name of ["a", "b", "c", "d"]) {
      now += 1_000;
      store.ensure(`agent:main:${name}`);
      store.ensure(`agent:ops:${name}`);
    }
    now += 1_000;
    store.appendMessages("agent:main:a", null, [{ role: "user", content: "bump", timestamp: 1 }]); // a becomes newest
    const removed = archivedBy(store.prune({ maxEntries: 2 }));
    expect(removed.sort()).toEqual(["agent:main:b", "agent:main:c", "agent:ops:a", "agent:ops:b"]);
    expect(store.list("main").map((e) => e.sessionKey)).toEqual(["agent:main:a", "agent:main:d"]);
    expect(store.list("ops").map((e) => e.sessionKey)).toEqual(["agent:ops:d", "agent:ops:c"]);
    expect(archivedBy(store.prune({ maxEntries: 2, maxAgeMs: 1e9 }))).toEqual([]);
  });

  it("over the cap, anonymous HTTP sessions go first: newer ones never outlive a chat's session", () => {
    const state = makeStateDir();
    let now = 0;
    const store = openStore(state, { now: () => now });
    store.ensure("agent:main:telegram:direct:42");
    store.ensure("agent:main:main");
    for (let i = 0; i < 3; i += 1) {
      now += 1_000;
      store.ensure(`agent:main:openai:req-${i}`);
    }
    store.ensure("agent:main:openresponses:resp-1");
    const removed = archivedBy(store.prune({ maxEntries: 3 }));
    expect(removed.sort()).toEqual(["agent:main:openai:req-0", "agent:main:openai:req-1", "agent:main:openai:req-2"]);
    expect(
      store
        .list("main")
        .map((e) => e.sessionKey)
        .sort(),
    ).toEqual(["agent:main:main", "agent:main:openresponses:resp-1", "agent:main:telegram:direct:42"]);
  });

  it("over the cap, webhook run sessions go first too, never a chat's or a persistent hook's session", () => {
    const state = makeStateDir();
    let now = 0;
    const store = openStore(state, { now: () => now });
    store.ensure("agent:main:telegram:direct:42");
    store.ensure("agent:main:hook:inbox");
    for (const key of ["agent:main:hook:5f0c1b2a-9d3e-4c1f-8a6b-0e2d4c6f8a10", "agent:main:hook:inbox:run:0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"]) {
      now += 1_000;
      store.ensure(key);
    }
    expect(archivedBy(store.prune({ maxEntries: 2 })).sort()).toEqual([
      "agent:main:hook:5f0c1b2a-9d3e-4c1f-8a6b-0e2d4c6f8a10",
      "agent:main:hook:inbox:run:0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9",
    ]);
  });
});

describe("discard", () => {
  it("removes the session and its transcript with no archive left behind", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const entry = store.ensure("agent:main:openai:one-off");
    store.appendMessages("agent:main:openai:one-off", null, [{ role: "user", content: "hi", timestamp: 1 }]);
    store.flush();
    expect(store.discard("agent:main:openai:one-off")).toBe(true);
    expect(store.get("agent:main:openai:one-off")).toBeUndefined();
    // The index without the session is on disk before the transcript goes.
    expect(readIndex(state)["agent:main:openai:one-off"]).toBeUndefined();
    expect(fs.existsSync(entry.sessionFile)).toBe(false);
    store.flush();
    expect(filesIn(sessionsDirOf(state)).filter((f) => f.startsWith(path.basename(entry.sessionFile, ".jsonl")))).toEqual([]);
    expect(Object.keys(readIndex(state))).toEqual([]);
    expect(store.discard("agent:main:openai:one-off")).toBe(false);
  });

  it("needs no flush: an index without the session is on disk and the transcript gone when it returns", async () => {
    const state = makeStateDir();
    const store = openStore(state, { flushDelayMs: 10 });
    const entry = store.ensure("agent:main:openai:one-off");
    store.appendMessages("agent:main:openai:one-off", null, [{ role: "user", content: "hi", timestamp: 1 }]);
    expect(store.discard("agent:main:openai:one-off")).toBe(true);
    await vi.waitFor(() => expect(fs.existsSync(entry.sessionFile)).toBe(false), { timeout: 2_000, interval: 10 });
    expect(readIndex(state)).toEqual({});
  });
});

describe("one-off sessions (ensureOneOff)", () => {
  const ONE_OFF = "agent:main:openai:3f0c2a9e-one-off";

  it("are never written to the index nor fsynced, and discard removes them at once", async () => {
    const state = makeStateDir();
    const store = openStore(state, { flushDelayMs: 1 });
    store.ensure(KEY);
    store.flush();
    const indexInode = fs.statSync(path.join(sessionsDirOf(state), "sessions.json")).ino;
    const fsyncs = [vi.spyOn(fs, "fsyncSync"), vi.spyOn(fs, "fsync")];
    try {
      const entry = store.ensureOneOff(ONE_OFF);
      store.appendMessages(ONE_OFF, null, [{ role: "user", content: "hi", timestamp: 1 }]);
      store.appendMessages(ONE_OFF, null, [{ role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 2 }], { deferSync: true });
      await store.whenDurable(ONE_OFF);
      await store.indexWritesSettled();
      expect(fsyncs.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
      // Its creation and counters wrote no index (every write replaces the file).
      expect(fs.statSync(path.join(sessionsDirOf(state), "sessions.json")).ino).toBe(indexInode);
      expect(store.peek(ONE_OFF)?.messageCount).toBe(2);
      expect(readLines(entry.sessionFile).map((line) => line.type)).toEqual(["session", "message", "message"]);
      // Index writes that happen meanwhile (another session's counters) leave it out.
      store.appendMessages(KEY, null, [{ role: "user", content: "elsewhere", timestamp: 3 }]);
      await store.indexWritesSettled();
      store.flush();
      expect(Object.keys(readIndex(state))).toEqual([KEY]);
      expect(store.discard(ONE_OFF)).toBe(true);
      expect(fs.existsSync(entry.sessionFile)).toBe(false);
      expect(store.peek(ONE_OFF)).toBeUndefined();
    } finally {
      for (const spy of fsyncs) spy.mockRestore();
    }
    expect(store.discard(ONE_OFF)).toBe(false);
  });

  it("need a new key: an existing session is never made one-off", () => {
    const store = openStore(makeStateDir());
    store.ensure(ONE_OFF);
    expect(() => store.ensureOneOff(ONE_OFF)).toThrow(/already exists/);
  });

  it("left behind by a crash, come back at the next open like any session missing from the index", () => {
    const state = makeStateDir();
    const crashed = openStore(state);
    crashed.ensure(KEY);
    crashed.flush();
    crashed.ensureOneOff(ONE_OFF);
    crashed.appendMessages(ONE_OFF, null, [{ role: "user", content: "hi", timestamp: 1 }]);
    // No close(): the process died mid-turn.
    const reopened = openStore(state);
    expect(reopened.peek(ONE_OFF)?.messageCount).toBe(1);
    expect(reopened.collected.join("\n")).toContain(ONE_OFF);
  });
});

describe("rotateIfLarge", () => {
  let clock = 0;
  const user = (text: string): TranscriptMessage => ({ role: "user", content: text, timestamp: clock++ });
  const reply = (text: string): TranscriptMessage => ({ role: "assistant", content: [{ type: "text", text }], timestamp: clock++ });

  function longConversation() {
    const state = makeStateDir();
    const store = openStore(state);
    const entry = store.ensure(KEY);
    for (let i = 0; i < 40; i += 1) store.appendMessages(KEY, null, [user(`question ${i} ${"q".repeat(200)}`), reply(`answer ${i} ${"a".repeat(200)}`)]);
    store.appendEntries(KEY, null, [{ type: "compaction", summary: "Forty questions were asked.", firstKeptEntryId: "00000000", tokensBefore: 9000 }]);
    store.appendMessages(KEY, null, [user("run the tool")]);
    store.appendMessages(KEY, null, [
      { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "exec", arguments: { command: "ls" } }], timestamp: clock++ },
      { role: "toolResult", toolCallId: "c1", toolName: "exec", content: [{ type: "text", text: "x".repeat(3000) }], isError: false, timestamp: clock++ },
    ]);
    store.appendMessages(KEY, null, [reply("listed"), user("thanks"), reply("welcome")]);
    return { state, store, entry };
  }

  it("does nothing below the limit", () => {
    const { store, entry } = longConversation();
    const size = fs.statSync(entry.sessionFile).size;
    expect(store.rotateIfLarge(KEY, size)).toEqual({ rotated: false, bytes: size });
  });

  it("archives the full transcript and continues under the same sessionId with the newest history that fits", () => {
    const { state, store, entry } = longConversation();
    const before = fs.readFileSync(entry.sessionFile, "utf8");
    const oldEntries = store.readTranscript(KEY).entries;

    const result = store.rotateIfLarge(KEY, 4_000, { keepBytes: 1_500 });
    expect(result.rotated).toBe(true);
    if (!result.rotated) return;
    expect(path.basename(result.archivedTo)).toMatch(new RegExp(`^${entry.sessionId}\\.jsonl\\.rotated\\.`));
    expect(fs.readFileSync(result.archivedTo, "utf8")).toBe(before);

    const lines = readLines(entry.sessionFile);
    expect(lines[0]).toMatchObject({ type: "session", id: entry.sessionId, sessionKey: KEY, rotatedFrom: path.basename(result.archivedTo) });
    const { entries, warnings } = store.readTranscript(KEY);
    expect(warnings).toEqual([]);
    // Summary first, then the newest messages; the big tool group did not fit, so it went whole.
    expect(entries[0]).toMatchObject({ type: "compaction", summary: "Forty questions were asked.", parentId: null, firstKeptEntryId: entries[1]!.id });
    expect(entries.slice(1).map((e) => (e.message as { role: string }).role)).toEqual(["assistant", "user", "assistant"]);
    expect(entries.slice(1).map((e) => e.id)).toEqual(oldEntries.slice(-3).map((e) => e.id));
    for (let i = 1; i < entries.length; i += 1) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
    expect(fs.statSync(entry.sessionFile).size).toBeLessThan(1_500 + 400);
    expect(result.keptEntries + result.droppedEntries).toBe(oldEntries.length);
    expect(store.get(KEY)!.sessionId).toBe(entry.sessionId);
    store.flush();
    expect(readIndex(state)[KEY]!.sessionId).toBe(entry.sessionId);

    // The conversation goes on from the carried tail.
    const [next] = store.appendMessages(KEY, null, [user("and now?")]);
    expect(next!.parentId).toBe(entries[entries.length - 1]!.id);
    const history = loadHistory(store.readTranscript(KEY).entries, { tokenBudget: 10_000 });
    expect(history[0]!.role).toBe("user");
    expect(JSON.stringify(history[0])).toContain("Forty questions were asked.");
  });

  it("carries a tool call together with its result when they fit", () => {
    const { store } = longConversation();
    const result = store.rotateIfLarge(KEY, 4_000, { keepBytes: 5_000 });
    expect(result.rotated).toBe(true);
    const roles = store.readTranscript(KEY).entries.map((e) => (e.type === "message" ? (e.message as { role: string }).role : e.type));
    const callAt = roles.indexOf("toolResult") - 1;
    expect(roles[callAt]).toBe("assistant");
    expect(roles).toContain("toolResult");
    expect(roles[1]).not.toBe("toolResult");
  });

  it("does not carry a withdrawn message: the new file holds neither it nor its marker", () => {
    const { store } = longConversation();
    const [waiting] = store.appendMessages(KEY, null, [{ ...user("dropped from the queue"), idempotencyKey: "run-dropped" } as TranscriptMessage]);
    store.appendEntries(KEY, null, [withdrawalEntry(waiting!.id, "run-dropped", "dropped")]);
    store.appendMessages(KEY, null, [user("still here")]);
    expect(store.rotateIfLarge(KEY, 4_000, { keepBytes: 1_500 }).rotated).toBe(true);
    const carried = JSON.stringify(store.readTranscript(KEY).entries);
    expect(carried).toContain("still here");
    expect(carried).not.toContain("dropped from the queue");
    expect(carried).not.toContain(WITHDRAWN_CUSTOM_TYPE);
  });

  it("is fenced like an append when a runId is given", () => {
    const { store } = longConversation();
    store.claimWriter(KEY, "run-new");
    expect(() => store.rotateIfLarge(KEY, 10, { runId: "run-old" })).toThrow(StaleWriterError);
    expect(store.rotateIfLarge(KEY, 10, { runId: "run-new" }).rotated).toBe(true);
  });
});
