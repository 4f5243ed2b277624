import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { applyDefaults } from "../../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../../src/config/index.js";
import { modelTextRedaction } from "../../../../src/gateway/model-text-redaction.js";
import { parseSearchQuery, SessionSearchIndex, type SessionSearchResult, sessionSearchIndexPath } from "../../../../src/sessions/search/index.js";
import { withdrawalEntry, type SessionStore } from "../../../../src/sessions/store/index.js";
import { makeStateDir, openStore } from "../store/helpers.js";

const indexes: SessionSearchIndex[] = [];
afterEach(async () => {
  for (const index of indexes.splice(0)) await index.close();
});

function setup(options: { budgetBytes?: number } = {}) {
  const stateDir = makeStateDir();
  const store = openStore(stateDir);
  const file = sessionSearchIndexPath(stateDir);
  const warnings: string[] = [];
  const index = new SessionSearchIndex({ file, onWarning: (m) => warnings.push(m), ...options });
  indexes.push(index);
  /** Searches every session of the store (all visible), newest first. */
  const search = (query: string, more: { limit?: number; keys?: string[]; redact?: (text: string) => string } = {}): Promise<SessionSearchResult> =>
    index.search({
      sessions: store
        .list()
        .filter((e) => !more.keys || more.keys.includes(e.sessionKey))
        .map((e) => ({ sessionKey: e.sessionKey, sessionId: e.sessionId, sessionFile: e.sessionFile })),
      liveTranscript: (key) => store.peek(key)?.sessionFile,
      query: parseSearchQuery(query)!,
      limit: more.limit ?? 10,
      redact: more.redact ?? ((text) => text),
    });
  /** The index's rows, read from the SQLite file itself. */
  const rows = () => {
    const db = new Database(file, { readonly: true });
    try {
      return {
        transcripts: db.prepare("SELECT session_key AS sessionKey, indexed_bytes AS indexedBytes, shown FROM transcripts ORDER BY session_key").all() as {
          sessionKey: string;
          indexedBytes: number;
          shown: number;
        }[],
        messages: db
          .prepare("SELECT t.session_key AS sessionKey, m.position, m.text FROM messages m JOIN transcripts t ON t.id = m.transcript_id ORDER BY t.session_key, m.position")
          .all() as {
          sessionKey: string;
          position: number;
          text: string;
        }[],
      };
    } finally {
      db.close();
    }
  };
  return { stateDir, store, file, index, search, rows, warnings };
}

const user = (text: string, timestamp = Date.now()) => ({ role: "user", content: text, timestamp });
const assistant = (text: string, timestamp = Date.now()) => ({ role: "assistant", content: [{ type: "text", text }], timestamp });

function say(store: SessionStore, key: string, ...messages: Record<string, unknown>[]): void {
  store.ensure(key);
  store.appendMessages(key, null, messages as never);
}

const texts = (result: SessionSearchResult) => result.hits.map((h) => `${h.sessionKey} ${h.role}: ${h.snippet}`);

describe("SessionSearchIndex: what is indexed", () => {
  it("indexes user and assistant text only: no tool calls or results, thinking or images", async () => {
    const { store, search } = setup();
    say(
      store,
      "agent:main:a",
      user("please check the zebra file", 1_000),
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "zebra thoughts are private" },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "zebra.txt" } },
        ],
        timestamp: 2_000,
      },
      { role: "toolResult", toolCallId: "c1", content: "zebra contents from the tool", timestamp: 3_000 },
      { role: "user", content: [{ type: "image", data: "emVicmE=", mimeType: "image/png" }], timestamp: 4_000 },
      assistant("The zebra file says hello.", 5_000),
      { role: "custom-note", content: "zebra in an application record", timestamp: 6_000 },
    );
    const result = await search("zebra");
    expect(texts(result).sort()).toEqual(["agent:main:a assistant: The zebra file says hello.", "agent:main:a user: please check the zebra file"]);
    expect(result.indexing).toBe(false);
    expect((await search("private")).hits).toEqual([]);
    expect((await search("contents")).hits).toEqual([]);
  });

  it("a hit carries its session, id, role, time, score and how many shown messages follow it", async () => {
    const { store, search } = setup();
    say(store, "agent:main:a", user("first about pelicans", 1_000), assistant("noted", 2_000), user("unrelated", 3_000), assistant("pelicans again", 4_000), user("last", 5_000));
    const entry = store.get("agent:main:a")!;
    const { hits } = await search("pelicans");
    expect(hits).toHaveLength(2);
    const byText = Object.fromEntries(hits.map((h) => [h.snippet, h]));
    expect(byText["first about pelicans"]).toMatchObject({ sessionKey: "agent:main:a", sessionId: entry.sessionId, role: "user", at: 1_000, newerMessages: 4 });
    expect(byText["pelicans again"]).toMatchObject({ role: "assistant", at: 4_000, newerMessages: 1 });
    expect(hits.every((h) => h.score > 0)).toBe(true);
  });

  it("a withdrawn message leaves the index and the later messages move up", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user("keep one", 1_000));
    const [dropped] = store.appendMessages("agent:main:a", null, [user("dropped walrus", 2_000)] as never);
    say(store, "agent:main:a", user("keep walrus two", 3_000));
    expect((await search("walrus")).hits).toHaveLength(2);
    store.appendEntries("agent:main:a", null, [withdrawalEntry(dropped!.id, "run-1", "dropped")]);
    const { hits } = await search("walrus");
    expect(hits.map((h) => [h.snippet, h.newerMessages])).toEqual([["keep walrus two", 0]]);
    expect(rows().messages.map((m) => [m.position, m.text])).toEqual([
      [0, "keep one"],
      [1, "keep walrus two"],
    ]);
  });
});

describe("SessionSearchIndex: keeping up with the transcripts", () => {
  it("indexes only the bytes appended since the last search", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user("the word is albatross", 1_000));
    expect((await search("albatross")).hits).toHaveLength(1);
    const file = store.get("agent:main:a")!.sessionFile;
    const indexed = rows().transcripts[0]!.indexedBytes;
    expect(indexed).toBe(fs.statSync(file).size);
    // Rewrite the indexed bytes in place (same inode, same size): a search that re-read them would see "cormorant".
    const text = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, text.replace("albatross", "cormorant"), { flag: "r+" });
    say(store, "agent:main:a", assistant("and now a heron", 2_000));
    expect((await search("albatross")).hits).toHaveLength(1);
    expect((await search("cormorant")).hits).toHaveLength(0);
    expect((await search("heron")).hits.map((h) => h.newerMessages)).toEqual([0]);
    expect(rows().transcripts[0]!.indexedBytes).toBe(fs.statSync(file).size);
  });

  it("leaves a last line without its newline for a later search", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user("whole line osprey", 1_000));
    const file = store.get("agent:main:a")!.sessionFile;
    const complete = fs.statSync(file).size;
    const partial = JSON.stringify({ type: "message", id: "abcd1234", parentId: null, timestamp: new Date(2_000).toISOString(), message: user("half written osprey", 2_000) });
    fs.appendFileSync(file, partial);
    const first = await search("osprey");
    expect(first.hits.map((h) => h.snippet)).toEqual(["whole line osprey"]);
    expect(first.indexing).toBe(false);
    expect(rows().transcripts[0]!.indexedBytes).toBe(complete);
    fs.appendFileSync(file, "\n");
    expect((await search("osprey")).hits.map((h) => h.snippet).sort()).toEqual(["half written osprey", "whole line osprey"]);
  });

  it("indexes a rotated transcript (another file at the same path) afresh", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user(`old kestrel ${"x".repeat(3_000)}`, 1_000), user(`old kestrel two ${"y".repeat(3_000)}`, 2_000), user("recent kestrel", 3_000));
    expect((await search("kestrel")).hits).toHaveLength(3);
    const rotated = store.rotateIfLarge("agent:main:a", 1_000, { keepBytes: 500 });
    expect(rotated.rotated).toBe(true);
    const { hits } = await search("kestrel");
    expect(hits.map((h) => [h.snippet, h.newerMessages])).toEqual([["recent kestrel", 0]]);
    expect(rows().messages.map((m) => m.text)).toEqual(["recent kestrel"]);
  });

  it("indexes a transcript that shrank in place afresh", async () => {
    const { store, search } = setup();
    say(store, "agent:main:a", user("alpha plover", 1_000), user("beta plover", 2_000));
    expect((await search("plover")).hits).toHaveLength(2);
    const file = store.get("agent:main:a")!.sessionFile;
    const lines = fs.readFileSync(file, "utf8").split("\n");
    fs.truncateSync(file, 0);
    fs.writeFileSync(file, `${lines[0]}\n${lines[2]}\n`, { flag: "r+" });
    expect((await search("plover")).hits.map((h) => h.snippet)).toEqual(["beta plover"]);
  });

  it("drops a reset session's earlier transcript and indexes its new one", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user("before the reset: gannet", 1_000));
    expect((await search("gannet")).hits).toHaveLength(1);
    store.reset("agent:main:a");
    say(store, "agent:main:a", user("after the reset: gannet again", 2_000));
    const { hits } = await search("gannet");
    expect(hits.map((h) => [h.snippet, h.sessionId])).toEqual([["after the reset: gannet again", store.get("agent:main:a")!.sessionId]]);
    expect(rows().messages.map((m) => m.text)).toEqual(["after the reset: gannet again"]);
  });

  it("a deleted session's rows are gone from the index at the next search, even one that does not search it", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user("secret puffin plans", 1_000));
    say(store, "agent:main:b", user("other puffin", 2_000));
    expect((await search("puffin")).hits).toHaveLength(2);
    store.delete("agent:main:a");
    // Only b is searched here; a's rows go all the same.
    expect(texts(await search("puffin", { keys: ["agent:main:b"] }))).toEqual(["agent:main:b user: other puffin"]);
    expect(rows().transcripts.map((t) => t.sessionKey)).toEqual(["agent:main:b"]);
    expect(rows().messages.map((m) => m.sessionKey)).toEqual(["agent:main:b"]);
  });

  it("searches only the sessions it is given, and indexes only those", async () => {
    const { store, search, rows } = setup();
    say(store, "agent:main:a", user("shared word tern", 1_000));
    say(store, "agent:other:b", user("shared word tern", 2_000));
    expect(texts(await search("tern", { keys: ["agent:main:a"] }))).toEqual(["agent:main:a user: shared word tern"]);
    expect(rows().transcripts.map((t) => t.sessionKey)).toEqual(["agent:main:a"]);
  });
});

describe("SessionSearchIndex: bounds", () => {
  it("returns at most `limit` hits, best first", async () => {
    const { store, search } = setup();
    for (let i = 0; i < 12; i += 1) say(store, `agent:main:s${i}`, user(`grebe number ${i}`, 1_000 + i));
    say(store, "agent:main:best", user("grebe grebe grebe", 5_000));
    const { hits } = await search("grebe", { limit: 5 });
    expect(hits).toHaveLength(5);
    expect(hits[0]!.snippet).toBe("grebe grebe grebe");
  });

  it("a search reads at most its budget of transcript bytes; the next searches go on where it stopped", async () => {
    const { store, search } = setup({ budgetBytes: 4_096 });
    for (let i = 0; i < 6; i += 1) say(store, `agent:main:s${i}`, ...Array.from({ length: 8 }, (_, k) => user(`skua message ${k} ${"z".repeat(200)}`, 1_000 + k)));
    const first = await search("skua", { limit: 25 });
    expect(first.indexing).toBe(true);
    // Hits of transcripts not fully indexed carry no history position.
    const partial = first.hits.filter((h) => h.newerMessages === undefined);
    expect(partial.length).toBeGreaterThan(0);
    let last = first;
    for (let round = 0; round < 20 && last.indexing; round += 1) last = await search("skua", { limit: 25 });
    expect(last.indexing).toBe(false);
    expect((await search("skua", { limit: 25 })).hits.length).toBe(25);
    const all = await search('"skua message 7"', { limit: 25 });
    expect(all.hits).toHaveLength(6);
    expect(all.hits.every((h) => h.newerMessages === 0)).toBe(true);
  });

  it("a snippet is short, cut around the match, and cut from the text after it was redacted", async () => {
    const { store, search } = setup();
    const secret = "SUPERSECRETVALUE-1234567890";
    const config = applyDefaults({} as never) as OpenClawConfig;
    const redact = modelTextRedaction(() => config, { MY_SERVICE_TOKEN: secret });
    // The secret straddles where a snippet around "cassowary" would end.
    const text = `${"filler ".repeat(60)}the cassowary ${"w".repeat(205)} ${secret} ${"tail ".repeat(60)}`;
    say(store, "agent:main:a", user(text, 1_000));
    say(store, "agent:main:b", user(`token for cassowary is ${secret} and sk-abcdefghijklmnopqrstuvwx`, 2_000));
    const { hits } = await search("cassowary", { redact });
    expect(hits).toHaveLength(2);
    for (const hit of hits) {
      expect(hit.snippet).toContain("cassowary");
      expect(hit.snippet.length).toBeLessThanOrEqual(302);
      for (let n = 6; n <= secret.length; n += 1) expect(hit.snippet).not.toContain(secret.slice(0, n));
      expect(hit.snippet).not.toContain("abcdefghijklmnop");
    }
    expect(hits.find((h) => h.sessionKey === "agent:main:b")!.snippet).toBe("token for cassowary is [redacted] and [redacted]");
    // Searching for the secret itself finds the message, but never shows it.
    const bySecret = await search(secret, { redact });
    expect(bySecret.hits.length).toBeGreaterThan(0);
    for (const hit of bySecret.hits) expect(hit.snippet).not.toContain("SUPERSECRET");
  });
});

describe("SessionSearchIndex: the file", () => {
  it("lives under the state dir, created 0600 in a 0700 directory, opened at the first search", async () => {
    const { store, search, file, stateDir } = setup();
    expect(file).toBe(path.join(stateDir, "sessions-search", "index.sqlite"));
    expect(fs.existsSync(file)).toBe(false);
    say(store, "agent:main:a", user("hello", 1_000));
    await search("hello");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it("replaces a file that is not a database with an empty index, which the search fills", async () => {
    const { store, search, file, warnings } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "this is not a database, just text that is long enough to be read as a header ".repeat(10));
    say(store, "agent:main:a", user("ibis", 1_000));
    expect((await search("ibis")).hits).toHaveLength(1);
    expect(warnings.join("\n")).toMatch(/unreadable/);
  });

  it("searches one at a time: concurrent searches all answer", async () => {
    const { store, search } = setup();
    for (let i = 0; i < 5; i += 1) say(store, `agent:main:s${i}`, user(`egret ${i}`, 1_000 + i));
    const results = await Promise.all(Array.from({ length: 6 }, () => search("egret")));
    for (const result of results) expect(result.hits).toHaveLength(5);
  });
});
