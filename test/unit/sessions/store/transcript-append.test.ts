import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TranscriptMessage } from "../../../../src/agents/types.js";
import { StaleWriterError, SessionNotFoundError } from "../../../../src/sessions/store/index.js";
import { makeStateDir, openStore, readIndex, readLines, sessionsDirOf } from "./helpers.js";

const KEY = "agent:main:main";

const userMsg: TranscriptMessage = { role: "user", content: "read AGENTS.md", timestamp: 1, idempotencyKey: "idem-1", provenance: { kind: "external_user", method: "chat.send" } };
const toolCall: TranscriptMessage = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: "need the file" },
    { type: "toolCall", id: "call_1", name: "read", arguments: { path: "AGENTS.md" } },
  ],
  provider: "anthropic",
  model: "claude",
  usage: { input: 120, output: 8, cacheRead: 0, cacheWrite: 0 },
  stopReason: "toolUse",
  timestamp: 2,
};
const toolResult: TranscriptMessage = {
  role: "toolResult",
  toolCallId: "call_1",
  toolName: "read",
  content: [{ type: "text", text: "# rules" }],
  isError: false,
  details: { bytes: 7 },
  timestamp: 3,
};

afterEach(() => vi.restoreAllMocks());

describe("appendMessages + readTranscript", () => {
  it("round-trips messages with tool calls and extra fields, chaining ids", () => {
    const store = openStore(makeStateDir());
    store.ensure(KEY);
    const first = store.appendMessages(KEY, null, [userMsg]);
    store.claimWriter(KEY, "run-1");
    const second = store.appendMessages(KEY, "run-1", [toolCall, toolResult]);

    const { header, entries, warnings } = store.readTranscript(KEY);
    expect(warnings).toEqual([]);
    expect(header).toMatchObject({ type: "session", version: 3, sessionKey: KEY });
    expect(entries.map((e) => e.message)).toEqual([userMsg, toolCall, toolResult]);
    expect(entries.map((e) => e.id)).toEqual([...first, ...second].map((e) => e.id));
    for (const e of entries) {
      expect(e.type).toBe("message");
      expect(e.id).toMatch(/^[0-9a-f]{8}$/);
      expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
    }
    expect(entries[0]!.parentId).toBeNull();
    expect(entries[1]!.parentId).toBe(entries[0]!.id);
    expect(entries[2]!.parentId).toBe(entries[1]!.id);
  });

  it("keeps the line format of reference §6.4 (store fields first)", () => {
    const store = openStore(makeStateDir());
    const { sessionFile } = store.ensure(KEY);
    store.appendMessages(KEY, null, [userMsg]);
    const raw = fs.readFileSync(sessionFile, "utf8").split("\n")[1]!;
    expect(Object.keys(JSON.parse(raw))).toEqual(["type", "id", "parentId", "timestamp", "message"]);
  });

  it("continues the parent chain after the store is reopened", () => {
    const state = makeStateDir();
    const a = openStore(state);
    a.ensure(KEY);
    const [last] = a.appendMessages(KEY, null, [userMsg]);
    a.close();
    const b = openStore(state);
    const [next] = b.appendMessages(KEY, null, [{ role: "user", content: "again", timestamp: 9 }]);
    expect(next!.parentId).toBe(last!.id);
  });

  it("writes once and fsyncs before returning", () => {
    const store = openStore(makeStateDir());
    store.ensure(KEY);
    const fsync = vi.spyOn(fs, "fsyncSync");
    const write = vi.spyOn(fs, "writeSync");
    store.appendMessages(KEY, null, [userMsg, toolCall, toolResult]);
    expect(write).toHaveBeenCalledTimes(1);
    expect(fsync).toHaveBeenCalledTimes(1);
  });

  it("an empty batch writes nothing", () => {
    const store = openStore(makeStateDir());
    const { sessionFile } = store.ensure(KEY);
    expect(store.appendMessages(KEY, null, [])).toEqual([]);
    expect(readLines(sessionFile)).toHaveLength(1);
  });

  it("refuses an append to a session that does not exist", () => {
    const store = openStore(makeStateDir());
    expect(() => store.appendMessages(KEY, null, [userMsg])).toThrow(SessionNotFoundError);
    expect(() => store.appendMessages(KEY, "run-1", [userMsg])).toThrow(StaleWriterError);
  });

  it("refuses a message without a role and writes nothing", () => {
    const store = openStore(makeStateDir());
    const { sessionFile } = store.ensure(KEY);
    expect(() => store.appendMessages(KEY, null, [userMsg, { content: "x" } as never])).toThrow(/role/);
    expect(readLines(sessionFile)).toHaveLength(1);
  });
});

describe("writer fencing", () => {
  it("a superseded run gets StaleWriterError and writes nothing", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const { sessionFile } = store.ensure(KEY);
    store.claimWriter(KEY, "run-old");
    store.claimWriter(KEY, "run-new");
    store.flush();
    expect(readIndex(state)[KEY]!.activeWriterRunId).toBe("run-new");
    const before = fs.readFileSync(sessionFile, "utf8");
    let error: unknown;
    try {
      store.appendMessages(KEY, "run-old", [toolCall]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StaleWriterError);
    expect((error as StaleWriterError).activeWriterRunId).toBe("run-new");
    expect(fs.readFileSync(sessionFile, "utf8")).toBe(before);
    expect(store.appendMessages(KEY, "run-new", [toolCall])).toHaveLength(1);
  });

  it("appends outside a run (null) are allowed while a run holds the session", () => {
    const store = openStore(makeStateDir());
    store.ensure(KEY);
    store.claimWriter(KEY, "run-1");
    expect(store.appendMessages(KEY, null, [userMsg])).toHaveLength(1);
  });

  it("release, reset and delete end a run's right to write", () => {
    const store = openStore(makeStateDir());
    store.ensure(KEY);
    store.claimWriter(KEY, "r1");
    expect(store.releaseWriter(KEY, "other", { label: "from a stale run" })).toBe(false);
    expect(store.get(KEY)!.label).toBeUndefined();
    expect(store.releaseWriter(KEY, "r1", { abortedLastRun: false, label: "done" })).toBe(true);
    expect(store.get(KEY)).toMatchObject({ abortedLastRun: false, label: "done" });
    expect(() => store.appendMessages(KEY, "r1", [toolCall])).toThrow(StaleWriterError);

    store.claimWriter(KEY, "r2");
    store.reset(KEY);
    expect(() => store.appendMessages(KEY, "r2", [toolCall])).toThrow(StaleWriterError);

    store.claimWriter(KEY, "r3");
    store.delete(KEY);
    expect(() => store.appendMessages(KEY, "r3", [toolCall])).toThrow(StaleWriterError);
  });

  it("recoverInterruptedRuns clears claims left by a dead process and flags the session", () => {
    const state = makeStateDir();
    const a = openStore(state);
    a.ensure(KEY);
    a.claimWriter(KEY, "run-died");
    a.flush(); // a dead process may or may not have persisted its claim; this is the case where it did
    const b = openStore(state);
    expect(b.recoverInterruptedRuns()).toEqual([KEY]);
    expect(b.get(KEY)).toMatchObject({ abortedLastRun: true });
    expect(b.get(KEY)!.activeWriterRunId).toBeUndefined();
    b.flush();
    expect(readIndex(state)[KEY]!.activeWriterRunId).toBeUndefined();
  });
});

describe("damaged transcripts", () => {
  it("skips a torn last line with a warning, and the next append starts on a new line", () => {
    const state = makeStateDir();
    const store = openStore(state);
    const { sessionFile } = store.ensure(KEY);
    store.appendMessages(KEY, null, [userMsg]);
    store.close();
    // What a crash in the middle of a write leaves behind.
    fs.appendFileSync(sessionFile, '{"type":"message","id":"abcd1234","parentId":null,"timest');

    const reopened = openStore(state);
    const torn = reopened.readTranscript(KEY);
    expect(torn.entries).toHaveLength(1);
    expect(torn.warnings).toHaveLength(1);
    expect(torn.warnings[0]).toMatch(/incomplete last line/);

    reopened.appendMessages(KEY, null, [{ role: "user", content: "after the crash", timestamp: 5 }]);
    const healed = reopened.readTranscript(KEY);
    expect(healed.entries.map((e) => (e.message as { content: unknown }).content)).toEqual(["read AGENTS.md", "after the crash"]);
    expect(healed.entries[1]!.parentId).toBe(torn.entries[0]!.id);
    expect(healed.warnings).toEqual([expect.stringMatching(/line 3: not a JSON object/)]);
  });

  it("skips invalid lines in the middle and never throws on content", () => {
    const store = openStore(makeStateDir());
    const { sessionFile } = store.ensure(KEY);
    store.appendMessages(KEY, null, [userMsg]);
    fs.appendFileSync(sessionFile, 'garbage\n[1,2]\n{"type":"message","id":"x"}\n{"no":"type"}\n');
    store.appendMessages(KEY, null, [{ role: "user", content: "later", timestamp: 6 }]);
    const { entries, warnings } = store.readTranscript(KEY);
    expect(entries).toHaveLength(2);
    expect(warnings).toHaveLength(4);
  });

  it("skips message entries a provider could not be sent, with a warning naming the problem", () => {
    const store = openStore(makeStateDir());
    const { sessionFile } = store.ensure(KEY);
    store.appendMessages(KEY, null, [userMsg]);
    const poisoned = [
      { role: "assistant", content: 7 },
      { role: "user", content: [{ type: "text" }] },
      { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: "not an object" }] },
      { role: "toolResult", content: [{ type: "text", text: "x" }] },
      { role: "user", content: [{ type: "video", url: "x" }] },
    ];
    fs.appendFileSync(sessionFile, `${poisoned.map((message, i) => JSON.stringify({ type: "message", id: `p${i}`, parentId: null, timestamp: "x", message })).join("\n")}\n`);
    store.appendMessages(KEY, null, [
      { role: "user", content: "later", timestamp: 6 },
      { role: "custom-event", payload: 1, timestamp: 7 },
    ]);
    const { entries, warnings } = store.readTranscript(KEY);
    expect(entries.map((e) => (e.message as { role: string }).role)).toEqual(["user", "user", "custom-event"]);
    expect(warnings).toEqual([
      expect.stringMatching(/assistant message whose content is neither text nor a list of blocks; skipped$/),
      expect.stringMatching(/user message with a malformed "text" block; skipped$/),
      expect.stringMatching(/assistant message with a malformed "toolCall" block; skipped$/),
      expect.stringMatching(/toolResult message without a toolCallId; skipped$/),
      expect.stringMatching(/user message with an unknown "video" block; skipped$/),
    ]);
  });

  it("a missing transcript reads as empty with a warning and gets a fresh header on append", () => {
    const store = openStore(makeStateDir());
    const { sessionFile } = store.ensure(KEY);
    store.appendMessages(KEY, null, [userMsg]);
    fs.rmSync(sessionFile);
    expect(store.readTranscript(KEY)).toEqual({ header: null, entries: [], warnings: ["the transcript file is missing"] });
    store.appendMessages(KEY, null, [userMsg]);
    const { header, entries, warnings } = store.readTranscript(KEY);
    expect(warnings).toEqual([]);
    expect(header).toMatchObject({ type: "session", sessionKey: KEY });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.parentId).toBeNull();
    expect(store.collected.some((w) => /was missing; started it again/.test(w))).toBe(true);
  });
});

describe("coalesced index updates", () => {
  it("counters reach sessions.json within the flush delay, on flush() and on close()", async () => {
    const state = makeStateDir();
    const store = openStore(state, { flushDelayMs: 20 });
    store.ensure(KEY);
    store.appendMessages(KEY, null, [userMsg], { usage: { input: 10, output: 2, cacheRead: 5, cacheWrite: 1 }, contextTokens: 400 });
    // Not yet: a plain session's row and its counters are coalesced.
    expect(fs.existsSync(path.join(sessionsDirOf(state), "sessions.json"))).toBe(false);
    // Written by the background timer, without any further call (polled: the machine may be busy).
    await vi.waitFor(() => expect(readIndex(state)[KEY]).toMatchObject({ messageCount: 1, inputTokens: 16, outputTokens: 2, totalTokens: 18, contextTokens: 400 }), {
      timeout: 2_000,
      interval: 10,
    });

    store.appendMessages(KEY, null, [userMsg, userMsg], { patch: { lastChannel: "telegram" } });
    store.flush();
    expect(readIndex(state)[KEY]).toMatchObject({ messageCount: 3, lastChannel: "telegram" });

    store.appendMessages(KEY, null, [userMsg]);
    store.close();
    expect(readIndex(state)[KEY]!.messageCount).toBe(4);
    expect(() => store.appendMessages(KEY, null, [userMsg])).toThrow(/closed/);
  });
});
