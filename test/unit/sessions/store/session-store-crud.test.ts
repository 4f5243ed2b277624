import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionKeyError } from "../../../../src/sessions/keys/index.js";
import { SessionNotFoundError } from "../../../../src/sessions/store/index.js";
import { filesIn, makeStateDir, openStore, readIndex, readLines, sessionsDirOf } from "./helpers.js";

const KEY = "agent:main:main";

describe("SessionStore: ensure / get / list / patch / reset / delete", () => {
  it("ensure creates the index row and the transcript header, durably and once", () => {
    const state = makeStateDir();
    let t = 1_000;
    const store = openStore(state, { now: () => t });
    const entry = store.ensure(KEY, { label: "Main chat", channel: "telegram", cwd: "/ws" });
    expect(entry).toMatchObject({
      sessionKey: KEY,
      agentId: "main",
      label: "Main chat",
      channel: "telegram",
      updatedAt: 1_000,
      sessionStartedAt: 1_000,
      messageCount: 0,
      inputTokens: 0,
    });
    expect(entry.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.sessionFile).toBe(path.join(sessionsDirOf(state), `${entry.sessionId}.jsonl`));

    // Durable before returning: visible on disk without flush().
    expect(readIndex(state)[KEY]).toMatchObject({ sessionId: entry.sessionId, sessionFile: entry.sessionFile });
    const [header] = readLines(entry.sessionFile);
    expect(header).toMatchObject({ type: "session", version: 3, id: entry.sessionId, cwd: "/ws", sessionKey: KEY, agentId: "main" });
    expect(typeof header!.timestamp).toBe("string");

    t = 2_000;
    expect(store.ensure(KEY, { label: "ignored" })).toEqual(entry);
  });

  it("get returns undefined for unknown keys and copies, not live rows", () => {
    const store = openStore(makeStateDir());
    expect(store.get(KEY)).toBeUndefined();
    store.ensure(KEY);
    const copy = store.get(KEY)!;
    copy.label = "mutated";
    expect(store.get(KEY)!.label).toBeUndefined();
  });

  it("list sorts by updatedAt, newest first, across agents or for one", () => {
    const state = makeStateDir();
    let t = 1;
    const store = openStore(state, { now: () => t++ });
    store.ensure("agent:main:a");
    store.ensure("agent:ops:b");
    store.ensure("agent:main:c");
    expect(store.list().map((e) => e.sessionKey)).toEqual(["agent:main:c", "agent:ops:b", "agent:main:a"]);
    expect(store.list("OPS").map((e) => e.sessionKey)).toEqual(["agent:ops:b"]);
    // A fresh store sees agents it has not touched yet. The rows are flushed first: a row still only
    // in memory would be restored from its transcript with the wall clock's time, not this clock's.
    store.flush();
    expect(
      openStore(state)
        .list()
        .map((e) => e.sessionKey),
    ).toEqual(["agent:main:c", "agent:ops:b", "agent:main:a"]);
  });

  it("patch sets and clears fields but never store-owned ones", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const before = store.ensure(KEY, { thinkingLevel: "low" });
    const after = store.patch(KEY, { label: "renamed", thinkingLevel: null, modelOverride: "anthropic/claude", sessionId: "evil" } as never);
    expect(after.label).toBe("renamed");
    expect(after.thinkingLevel).toBeUndefined();
    expect(after.sessionId).toBe(before.sessionId);
    // Metadata reaches the index within the flush delay; flush() forces it.
    store.flush();
    expect(readIndex(state)[KEY]).toMatchObject({ label: "renamed", modelOverride: "anthropic/claude", sessionId: before.sessionId });
    expect(readIndex(state)[KEY]).not.toHaveProperty("thinkingLevel");
    expect(() => store.patch("agent:main:nope", { label: "x" })).toThrow(SessionNotFoundError);
  });

  it("reset starts a new sessionId, archives the old transcript, keeps settings, drops counters", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const first = store.ensure(KEY, { label: "keep me", modelOverride: "m" });
    store.appendMessages(KEY, null, [{ role: "user", content: "hi", timestamp: 1 }], { usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0 } });
    store.claimWriter(KEY, "run-1");
    const second = store.reset(KEY);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second).toMatchObject({ label: "keep me", modelOverride: "m", messageCount: 0, inputTokens: 0 });
    expect(second.activeWriterRunId).toBeUndefined();
    expect(fs.existsSync(first.sessionFile)).toBe(false);
    const archives = filesIn(sessionsDirOf(state)).filter((f) => f.startsWith(`${first.sessionId}.jsonl.reset.`));
    expect(archives).toHaveLength(1);
    expect(readLines(second.sessionFile)).toHaveLength(1);
    expect(readIndex(state)[KEY]!.sessionId).toBe(second.sessionId);
  });

  it("reset of a missing session creates it", () => {
    const store = openStore(makeStateDir());
    expect(store.reset(KEY).sessionKey).toBe(KEY);
  });

  it("delete removes the row and archives the transcript as .deleted.<ts>", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const entry = store.ensure(KEY);
    expect(store.delete(KEY)).toBe(true);
    expect(store.delete(KEY)).toBe(false);
    expect(store.get(KEY)).toBeUndefined();
    expect(readIndex(state)).toEqual({});
    expect(filesIn(sessionsDirOf(state)).some((f) => f.startsWith(`${entry.sessionId}.jsonl.deleted.`))).toBe(true);
  });

  it("the index is valid JSON after every operation and has no temp files left", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const steps: (() => unknown)[] = [
      () => store.ensure(KEY),
      () => store.ensure("agent:main:openai-user:bob"),
      () => store.patch(KEY, { label: "x" }),
      () => store.claimWriter(KEY, "r1"),
      () => store.appendMessages(KEY, "r1", [{ role: "user", content: "q", timestamp: 1 }]),
      () => store.flush(),
      () => store.releaseWriter(KEY, "r1"),
      () => store.reset(KEY),
      () => store.delete("agent:main:openai-user:bob"),
      () => store.prune({ maxEntries: 0 }),
    ];
    const indexPath = path.join(sessionsDirOf(state), "sessions.json");
    for (const step of steps) {
      step();
      // Plain sessions reach the index coalesced: before the first write there is no file yet.
      if (fs.existsSync(indexPath)) expect(() => readIndex(state)).not.toThrow();
      expect(filesIn(sessionsDirOf(state)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    }
    expect(fs.existsSync(indexPath)).toBe(true);
  });

  it("refuses hostile keys before touching the disk", () => {
    const state = makeStateDir();
    const store = openStore(state);
    for (const key of ["../../x", "agent:../../x:main", "agent:main:../../etc/passwd", "agent:main:a\u0000b", `agent:main:${"x".repeat(10_000)}`, "main"]) {
      expect(() => store.ensure(key)).toThrow(SessionKeyError);
      expect(() => store.get(key)).toThrow(SessionKeyError);
    }
    expect(() => store.list("../x")).toThrow(SessionKeyError);
    expect(() => store.ensure("agent:main:x", { agentId: "ops" })).toThrow(/belongs to agent main/);
    expect(fs.existsSync(path.join(state, "agents"))).toBe(false);
  });

  it("sharedKey gives back the same key text, canonical or not", () => {
    const store = openStore(makeStateDir());
    // Only the string instance may differ (not observable); the text never changes.
    expect(store.sharedKey(KEY)).toBe(KEY);
    expect(store.sharedKey(`agent:main:${"openai-user"}:${"alice"}`)).toBe("agent:main:openai-user:alice");
    expect(store.sharedKey("AGENT:Main:Main")).toBe("AGENT:Main:Main");
  });

  it("normalizes key case", () => {
    const store = openStore(makeStateDir());
    store.ensure("agent:Main:Telegram:Group:-100");
    expect(store.get("agent:main:telegram:group:-100")).toBeDefined();
  });
});
