import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeStateDir, openStore, readIndex, readLines, sessionsDirOf } from "./helpers.js";

const KEY = "agent:main:telegram:direct:42";

/** The paths fs.open was asked to open (fsyncFile opens what it fsyncs), from the spy's calls. */
const openedPaths = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((call) => String(call[0]));

describe("ensure with deferSync", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes the header without an fsync on the calling thread; its fsync and its directory's start at once, and whenDurable covers them", async () => {
    const state = makeStateDir();
    const store = openStore(state);
    const fsyncSync = vi.spyOn(fs, "fsyncSync");
    const open = vi.spyOn(fs, "open");
    const fsync = vi.spyOn(fs, "fsync");

    const entry = store.ensure(KEY, {}, { deferSync: true });
    expect(fsyncSync).not.toHaveBeenCalled();
    expect(readLines(entry.sessionFile)).toEqual([expect.objectContaining({ type: "session", id: entry.sessionId, sessionKey: KEY })]);
    // Started before anyone asked: the file is being opened for its fsync already.
    expect(openedPaths(open)).toContain(entry.sessionFile);

    store.appendMessages(KEY, null, [{ role: "user", content: "hi", timestamp: 1 }], { deferSync: true });
    await store.whenDurable(KEY);
    expect(fsyncSync).not.toHaveBeenCalled();
    expect(openedPaths(open)).toContain(sessionsDirOf(state));
    expect(fsync.mock.calls.length).toBeGreaterThanOrEqual(3); // the header, its directory, then the message

    // Once durable, a later commit fsyncs the file alone.
    open.mockClear();
    store.appendMessages(KEY, null, [{ role: "user", content: "again", timestamp: 2 }], { deferSync: true });
    await store.whenDurable(KEY);
    expect(openedPaths(open)).not.toContain(sessionsDirOf(state));
  });

  it("an append made durable at once (no deferSync) fsyncs the new file's directory too", () => {
    const state = makeStateDir();
    const store = openStore(state);
    store.ensure(KEY, {}, { deferSync: true });
    const openSync = vi.spyOn(fs, "openSync");
    store.appendMessages(KEY, null, [{ role: "user", content: "hi", timestamp: 1 }]);
    expect(openSync.mock.calls.map((call) => String(call[0]))).toContain(sessionsDirOf(state));
  });

  it("a session created with settings is durable before ensure returns all the same (its index row names it at once)", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const fsyncSync = vi.spyOn(fs, "fsyncSync");
    store.ensure(KEY, { label: "kept" }, { deferSync: true });
    // The transcript and its directory, then the index file and its directory.
    expect(fsyncSync.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(readIndex(state)[KEY]).toMatchObject({ label: "kept" });
  });

  it("a transcript a crash left empty (its header never reached the disk) gets a fresh header before the next append", () => {
    const state = makeStateDir();
    const crashed = openStore(state);
    const entry = crashed.ensure(KEY, {}, { deferSync: true });
    crashed.flush(); // the coalesced index row reached the disk; the header did not
    fs.truncateSync(entry.sessionFile, 0);

    const reopened = openStore(state);
    expect(reopened.get(KEY)?.sessionId).toBe(entry.sessionId);
    reopened.appendMessages(KEY, null, [{ role: "user", content: "hello again", timestamp: 1 }]);
    const { header, entries, warnings } = reopened.readTranscript(KEY);
    expect(warnings).toEqual([]);
    expect(header).toMatchObject({ type: "session", id: entry.sessionId, sessionKey: KEY });
    expect(entries.map((e) => (e.message as { content: unknown }).content)).toEqual(["hello again"]);
    expect(reopened.collected.some((w) => w.includes(path.basename(entry.sessionFile)) && /was empty; started it again with a fresh header/.test(w))).toBe(true);
  });
});
