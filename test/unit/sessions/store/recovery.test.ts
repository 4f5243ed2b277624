import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { withdrawalEntry } from "../../../../src/sessions/store/index.js";
import { filesIn, makeStateDir, openStore, readIndex, readLines, sessionsDirOf } from "./helpers.js";

const KEY = "agent:main:main";
const BOB = "agent:main:openai-user:bob";

function seed(state: string) {
  const store = openStore(state);
  const main = store.ensure(KEY, { label: "lost on rebuild" });
  const bob = store.ensure(BOB);
  store.appendMessages(KEY, null, [{ role: "user", content: "hi", timestamp: 1 }]);
  store.appendMessages(KEY, null, [
    { role: "assistant", content: [{ type: "text", text: "hello" }], usage: { input: 100, output: 10, cacheRead: 20, cacheWrite: 0 }, timestamp: 2 },
  ]);
  store.reset(BOB); // leaves a .reset. archive that must not come back as a live session
  const bobNow = store.get(BOB)!;
  store.close();
  return { main, bob, bobNow };
}

describe("recovery on open", () => {
  it("survives a crash mid-write: stale temp file + corrupt index → rebuilt from transcript headers", () => {
    const state = makeStateDir();
    const { main, bobNow } = seed(state);
    const dir = sessionsDirOf(state);
    const temp = path.join(dir, `.sessions.json.${process.pid}.deadbeef.tmp`);
    fs.writeFileSync(temp, '{"half": ');
    const old = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(temp, old, old);
    fs.writeFileSync(path.join(dir, "sessions.json"), '{"agent:main:main": {"sessionId": "');

    const store = openStore(state);
    const list = store.list();
    expect(list.map((e) => e.sessionKey).sort()).toEqual([KEY, BOB].sort());
    expect(store.get(KEY)).toMatchObject({ sessionId: main.sessionId, sessionFile: main.sessionFile, messageCount: 2, inputTokens: 120, outputTokens: 10, totalTokens: 130 });
    expect(store.get(BOB)!.sessionId).toBe(bobNow.sessionId);
    expect(store.get(KEY)!.label).toBeUndefined(); // index-only settings are what a rebuild cannot know
    expect(store.collected.some((w) => /invalid JSON.*rebuilt 2 session/.test(w))).toBe(true);

    // The rebuilt index is on disk, valid, and the evidence is kept; the stale temp file is gone.
    expect(Object.keys(readIndex(state)).sort()).toEqual([KEY, BOB].sort());
    const files = filesIn(dir);
    expect(files.some((f) => f.startsWith("sessions.json.corrupt."))).toBe(true);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);

    // And the conversation continues where it was.
    const [next] = store.appendMessages(KEY, null, [{ role: "user", content: "still here?", timestamp: 3 }]);
    const { entries } = store.readTranscript(KEY);
    expect(next!.parentId).toBe(entries[1]!.id);
  });

  it("rebuilds a missing index when transcripts exist", () => {
    const state = makeStateDir();
    seed(state);
    fs.rmSync(path.join(sessionsDirOf(state), "sessions.json"));
    const store = openStore(state);
    expect(store.list()).toHaveLength(2);
    expect(store.collected.some((w) => /was missing; rebuilt 2/.test(w))).toBe(true);
  });

  it("counts only the messages the conversation holds: a withdrawn one counts neither live nor in a rebuilt index", () => {
    const state = makeStateDir();
    seed(state);
    const store = openStore(state);
    const [queued] = store.appendMessages(KEY, null, [{ role: "user", content: "never answered", timestamp: 3, idempotencyKey: "run-3" }]);
    store.appendEntries(KEY, null, [withdrawalEntry(queued!.id, "run-3", "aborted")]);
    expect(store.get(KEY)!.messageCount).toBe(2);
    store.close();
    fs.rmSync(path.join(sessionsDirOf(state), "sessions.json"));
    expect(openStore(state).get(KEY)!.messageCount).toBe(2);
  });

  it("leaves a young temp file alone (another process may be writing it)", () => {
    const state = makeStateDir();
    seed(state);
    const temp = path.join(sessionsDirOf(state), ".sessions.json.1.cafebabe.tmp");
    fs.writeFileSync(temp, "{}");
    openStore(state).list();
    expect(fs.existsSync(temp)).toBe(true);
  });

  it("gives an index entry whose transcript is missing a fresh header", () => {
    const state = makeStateDir();
    const { main } = seed(state);
    fs.rmSync(main.sessionFile);
    const store = openStore(state);
    expect(store.get(KEY)!.sessionId).toBe(main.sessionId);
    expect(readLines(main.sessionFile)).toEqual([expect.objectContaining({ type: "session", id: main.sessionId, sessionKey: KEY, agentId: "main" })]);
    expect(store.collected.some((w) => /transcript .* was missing/.test(w))).toBe(true);
  });

  it("never trusts paths or foreign rows read from sessions.json", () => {
    const state = makeStateDir();
    const { main } = seed(state);
    const indexPath = path.join(sessionsDirOf(state), "sessions.json");
    const index = JSON.parse(fs.readFileSync(indexPath, "utf8")) as Record<string, Record<string, unknown>>;
    index[KEY]!.sessionFile = "/etc/passwd";
    index["agent:main:evil"] = { sessionId: "../../../../tmp/evil", updatedAt: 1 };
    index["agent:ops:misfiled"] = { sessionId: main.sessionId, updatedAt: 1 };
    index["not a key"] = { sessionId: main.sessionId };
    fs.writeFileSync(indexPath, JSON.stringify(index));

    const store = openStore(state);
    expect(store.get(KEY)!.sessionFile).toBe(main.sessionFile);
    expect(
      store
        .list()
        .map((e) => e.sessionKey)
        .sort(),
    ).toEqual([KEY, "agent:main:openai-user:bob"].sort());
    expect(store.collected.filter((w) => /rebuilding it from its transcript/.test(w))).toHaveLength(3);
  });

  it("an entry that cannot be read is rebuilt from its transcript, keeping the conversation", () => {
    const state = makeStateDir();
    const { main } = seed(state);
    const indexPath = path.join(sessionsDirOf(state), "sessions.json");
    const index = JSON.parse(fs.readFileSync(indexPath, "utf8")) as Record<string, Record<string, unknown>>;
    index[KEY]!.sessionId = 42; // a hand edit or a bad tool broke this one row
    fs.writeFileSync(indexPath, JSON.stringify(index));

    const store = openStore(state);
    expect(store.get(KEY)).toMatchObject({ sessionId: main.sessionId, sessionFile: main.sessionFile, messageCount: 2 });
    expect(store.readTranscript(KEY).entries).toHaveLength(2);
    expect(
      store
        .list()
        .map((e) => e.sessionKey)
        .sort(),
    ).toEqual([KEY, BOB].sort());
    expect(store.collected.some((w) => /restored 1 session\(s\) from transcript headers/.test(w))).toBe(true);
    // Written back: the next open needs no repair.
    expect(JSON.parse(fs.readFileSync(indexPath, "utf8"))[KEY].sessionId).toBe(main.sessionId);
  });

  it("keeps the newer transcript when an interrupted reset left two for one key", () => {
    const state = makeStateDir();
    const { main } = seed(state);
    const dir = sessionsDirOf(state);
    const newerId = "0f0f0f0f-0000-4000-8000-000000000001";
    fs.writeFileSync(
      path.join(dir, `${newerId}.jsonl`),
      `${JSON.stringify({ type: "session", version: 3, id: newerId, timestamp: new Date(Date.now() + 60_000).toISOString(), cwd: "/", sessionKey: KEY, agentId: "main" })}\n`,
    );
    fs.rmSync(path.join(dir, "sessions.json"));
    const store = openStore(state);
    expect(store.get(KEY)!.sessionId).toBe(newerId);
    expect(store.collected.some((w) => w.includes(main.sessionId) && w.includes("keeping the newer"))).toBe(true);
  });
});

describe("sessions created after the index was last written", () => {
  const indexPath = (state: string) => path.join(sessionsDirOf(state), "sessions.json");

  it("a plain session's row is coalesced; after a crash before its write it comes back from its header, with its messages", () => {
    const state = makeStateDir();
    let clock = 1_700_000_000_000;
    const first = openStore(state, { flushDelayMs: 3_600_000, now: () => clock });
    first.ensure(KEY, { label: "kept" }); // settings a header cannot carry: written at once
    expect(readIndex(state)[KEY]).toMatchObject({ label: "kept" });
    clock += 1_000;
    const bob = first.ensure(BOB); // plain: only its header is on disk yet
    first.appendMessages(BOB, null, [{ role: "user", content: "remember me", timestamp: 1 }]);
    expect(readIndex(state)[BOB]).toBeUndefined();
    // The process dies here: no flush, no close. The next open finds the transcript.
    const second = openStore(state, { now: () => clock });
    expect(second.get(BOB)).toMatchObject({ sessionId: bob.sessionId, sessionFile: bob.sessionFile, messageCount: 1 });
    expect(second.readTranscript(BOB).entries.map((e) => (e.message as { content: unknown }).content)).toEqual(["remember me"]);
    expect(second.get(KEY)).toMatchObject({ label: "kept" });
    expect(second.collected.some((w) => /restored 1 session\(s\) created after it was last written/.test(w) && w.includes(BOB))).toBe(true);
    expect(readIndex(state)[BOB]).toMatchObject({ sessionId: bob.sessionId }); // written back at once
  });

  it("leaves alone a transcript older than the index that nothing points at (a removed session whose archiving failed)", () => {
    const state = makeStateDir();
    let clock = 1_700_000_000_000;
    const first = openStore(state, { now: () => clock });
    const bob = first.ensure(BOB);
    first.appendMessages(BOB, null, [{ role: "user", content: "forget me", timestamp: 1 }]);
    first.flush();
    const saved = fs.readFileSync(bob.sessionFile);
    clock += 60_000;
    expect(first.delete(BOB)).toBe(true);
    fs.writeFileSync(bob.sessionFile, saved); // as if the archive's rename had failed
    first.close();
    const second = openStore(state, { now: () => clock });
    expect(second.get(BOB)).toBeUndefined();
    expect(second.collected.filter((w) => /restored/.test(w))).toEqual([]);
    expect(fs.existsSync(bob.sessionFile)).toBe(true);
  });

  it("every index write sets the file's mtime to the moment its content was taken", async () => {
    const state = makeStateDir();
    let clock = 1_700_000_000_000;
    const store = openStore(state, { flushDelayMs: 5, now: () => clock });
    store.ensure(KEY, { label: "x" });
    expect(Math.abs(fs.statSync(indexPath(state)).mtimeMs - clock)).toBeLessThan(1);
    clock += 5_000;
    store.patch(KEY, { label: "y" }); // coalesced: written in the background
    await vi.waitFor(() => expect(readIndex(state)[KEY]).toMatchObject({ label: "y" }), { timeout: 2_000, interval: 5 });
    expect(Math.abs(fs.statSync(indexPath(state)).mtimeMs - clock)).toBeLessThan(1);
  });
});
