import { afterEach, describe, expect, it } from "vitest";
import { SessionStore, withdrawalEntry } from "../../../src/sessions/store/index.js";
import { conversationText, SESSION_DELTA_MESSAGES } from "../../../src/memory/session-transcripts.js";
import { memoryFixture, type MemoryFixture } from "./helpers.js";

let fixture: MemoryFixture | undefined;
let store: SessionStore | undefined;
afterEach(async () => {
  store?.close();
  store = undefined;
  await fixture?.close();
  fixture = undefined;
});

const user = (text: string) => ({ role: "user", content: text, timestamp: Date.now() });
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: Date.now() });

describe('memory.search.sources: ["sessions"]', () => {
  it("finds words of the agent's own transcripts, and only when the source is on", async () => {
    fixture = memoryFixture({ provider: "none", sources: ["memory", "sessions"] });
    store = new SessionStore(fixture.stateDir);
    store.ensure("agent:main:main");
    store.appendMessages("agent:main:main", null, [user("The staging database password rotates on Fridays"), assistant("Noted: the rotation happens every Friday at 17:00")]);
    fixture.write("MEMORY.md", "# Memory\n\nNothing about databases here.\n");
    await fixture.service.sync("main");

    const found = await fixture.service.search("main", "staging database rotation");
    expect(found.results[0]!.path).toMatch(/^sessions\/[\w-]+\.jsonl$/);
    expect(found.results[0]!.snippet).toContain("User: The staging database password rotates on Fridays");
    expect(found.results[0]!.snippet).toContain("Assistant: Noted: the rotation happens every Friday at 17:00");

    // Turned off: the transcripts leave the index with the next sync.
    await fixture.reopen({ provider: "none" });
    await fixture.service.sync("main");
    expect((await fixture.service.search("main", "staging database rotation")).results.filter((r) => r.path.startsWith("sessions/"))).toEqual([]);
  });

  it("re-indexes a transcript in the background after 50 more messages, and at once on `memory index`", async () => {
    fixture = memoryFixture({ provider: "none", sources: ["memory", "sessions"] });
    store = new SessionStore(fixture.stateDir);
    store.ensure("agent:main:main");
    store.appendMessages("agent:main:main", null, [user("first words about kestrels")]);
    await fixture.service.sync("main");

    store.appendMessages("agent:main:main", null, [user("a short note about ospreys")]);
    // One new message is under the threshold: a search answers from what was indexed.
    expect((await fixture.service.search("main", "ospreys")).results).toEqual([]);
    // `memory index` takes every change.
    await fixture.service.sync("main");
    expect((await fixture.service.search("main", "ospreys")).results).toHaveLength(1);

    store.appendMessages(
      "agent:main:main",
      null,
      Array.from({ length: SESSION_DELTA_MESSAGES }, (_, i) => user(`filler ${i} plus herons`)),
    );
    const search = async () => (await fixture!.service.search("main", "herons")).results;
    // The search notices the growth and starts a sync; the next one sees its result.
    await search();
    await expect.poll(search, { timeout: 10_000 }).not.toEqual([]);
  });

  it("turns a transcript into its user and assistant words, nothing else", () => {
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-12-01T00:00:00Z", cwd: "/" },
      { type: "message", id: "1", parentId: null, timestamp: "2026-12-01T00:00:00Z", message: user("hello") },
      { type: "message", id: "2", parentId: "1", timestamp: "2026-12-01T00:00:00Z", message: { role: "toolResult", content: [{ type: "text", text: "secret tool output" }] } },
      { type: "message", id: "3", parentId: "2", timestamp: "2026-12-01T00:00:00Z", message: assistant("hi there") },
    ];
    expect(conversationText(lines.map((l) => JSON.stringify(l)).join("\n"))).toBe("User: hello\n\nAssistant: hi there");
  });

  it("leaves out a message withdrawn from the conversation (it left the queue unanswered)", () => {
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-12-01T00:00:00Z", cwd: "/" },
      { type: "message", id: "1", parentId: null, timestamp: "2026-12-01T00:00:00Z", message: user("hello") },
      { type: "message", id: "2", parentId: "1", timestamp: "2026-12-01T00:00:00Z", message: user("dropped from the queue") },
      { type: "message", id: "3", parentId: "2", timestamp: "2026-12-01T00:00:00Z", message: assistant("hi there") },
      { id: "4", parentId: "3", timestamp: "2026-12-01T00:00:00Z", ...withdrawalEntry("2", "run-2", "dropped") },
    ];
    expect(conversationText(lines.map((l) => JSON.stringify(l)).join("\n"))).toBe("User: hello\n\nAssistant: hi there");
  });
});
