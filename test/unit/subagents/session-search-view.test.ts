import { afterEach, describe, expect, it } from "vitest";
import { searchSessions, type SessionSearchDeps } from "../../../src/agents/agent-to-agent/session-search-view.js";
import { sessionHistory } from "../../../src/agents/agent-to-agent/session-views.js";
import type { SessionsSearchArgs, SessionToolCaller } from "../../../src/agents/tools/index.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { HistoryCache } from "../../../src/conversations/history-cache.js";
import { SessionSearchIndex, sessionSearchIndexPath } from "../../../src/sessions/search/index.js";
import type { SessionStore } from "../../../src/sessions/store/index.js";
import { makeStateDir, openStore } from "../sessions/store/helpers.js";

const indexes: SessionSearchIndex[] = [];
afterEach(async () => {
  for (const index of indexes.splice(0)) await index.close();
});

/** The view's deps over a real store and index; `spawned` lists `parent>child` pairs. */
function setup(tools: Record<string, unknown> = {}, spawned: string[] = []) {
  const stateDir = makeStateDir();
  const store = openStore(stateDir);
  const index = new SessionSearchIndex({ file: sessionSearchIndexPath(stateDir) });
  indexes.push(index);
  const config = applyDefaults({ tools } as never) as OpenClawConfig;
  const deps: SessionSearchDeps = {
    config: () => config,
    store,
    // sessions_history reads the transcript as the gateway's history cache does (afresh each time here).
    conversations: { history: (key: string) => new HistoryCache(store).history(key), runs: { activeFor: () => [] } } as never,
    registry: undefined as never,
    spawnedBy: (caller, target) => spawned.includes(`${caller}>${target}`),
    index,
    redact: (text) => text.replaceAll("hunter2-password", "[redacted]"),
  };
  return { store, deps, index };
}

const caller = (sessionKey: string): SessionToolCaller => ({ sessionKey, agentId: sessionKey.split(":")[1]!, senderIsOwner: true, workspaceDir: "/workspace" });
const search = (deps: SessionSearchDeps, from: string, args: SessionsSearchArgs) => searchSessions(deps, caller(from), args) as Promise<Record<string, any>>;

function say(store: SessionStore, key: string, ...messages: Record<string, unknown>[]): void {
  store.ensure(key);
  store.appendMessages(key, null, messages as never);
}
const user = (text: string) => ({ role: "user", content: text, timestamp: Date.now() });
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: Date.now() });

describe("sessions_search: visibility", () => {
  it("sessions outside visibility are removed before the limit: the visible hits fill it", async () => {
    const { store, deps } = setup({}, ["agent:main:peer>agent:main:subagent:kid"]);
    // Many strong matches the caller may not see: same agent outside its tree, and another agent.
    for (let i = 0; i < 15; i += 1) say(store, `agent:main:other${i}`, user("heron heron heron heron"));
    for (let i = 0; i < 15; i += 1) say(store, `agent:spy:s${i}`, user("heron heron heron heron"));
    say(store, "agent:main:peer", user("one heron here"));
    say(store, "agent:main:subagent:kid", assistant("a heron in the child"));
    const result = await search(deps, "agent:main:peer", { query: "heron", limit: 2 });
    expect(result.results.map((r: any) => r.sessionKey).sort()).toEqual(["agent:main:peer", "agent:main:subagent:kid"]);
  });

  it("uses the same rules as sessions_history: visibility all with agentToAgent reaches another agent", async () => {
    const { store, deps } = setup({ sessions: { visibility: "all" }, agentToAgent: { enabled: true } });
    say(store, "agent:spy:s", user("shared lark"));
    say(store, "agent:main:main", user("mine lark"));
    expect((await search(deps, "agent:main:main", { query: "lark" })).results.map((r: any) => r.sessionKey).sort()).toEqual(["agent:main:main", "agent:spy:s"]);
    const { store: store2, deps: deps2 } = setup({ sessions: { visibility: "all" } });
    say(store2, "agent:spy:s", user("shared lark"));
    say(store2, "agent:main:main", user("mine lark"));
    expect((await search(deps2, "agent:main:main", { query: "lark" })).results.map((r: any) => r.sessionKey)).toEqual(["agent:main:main"]);
  });

  it("sessionKey narrows the search to one visible session; an invisible one is refused as sessions_history refuses it", async () => {
    const { store, deps } = setup();
    say(store, "agent:main:main", user("main wren"));
    say(store, "agent:main:side", user("side wren"));
    const narrowed = await search(deps, "agent:main:main", { query: "wren", sessionKey: "side" });
    expect(narrowed.results.map((r: any) => r.sessionKey)).toEqual(["agent:main:side"]);
    const refused = await search(deps, "agent:main:side", { query: "wren", sessionKey: "agent:main:main" });
    expect(refused.code).toBe("SESSION_NOT_VISIBLE");
    expect(refused).toEqual(sessionHistory(deps, caller("agent:main:side"), { sessionKey: "agent:main:main" }));
    expect((await search(deps, "agent:main:main", { query: "wren", sessionKey: "agent:main:nothing" })).code).toBe("SESSION_NOT_FOUND");
  });
});

describe("sessions_search: the answer", () => {
  it("an empty query, or one without a word, is an INVALID_ARGUMENT error", async () => {
    const { deps } = setup();
    for (const query of ["", "   \n"]) expect(await search(deps, "agent:main:main", { query })).toMatchObject({ code: "INVALID_ARGUMENT", message: "query is empty." });
    expect(await search(deps, "agent:main:main", { query: "*** ?" })).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: 'query "*** ?" has no word to search for (no letter or digit).',
    });
  });

  it("historyOffset opens sessions_history on a page whose newest message is the hit", async () => {
    const { store, deps } = setup();
    say(
      store,
      "agent:main:main",
      user("where is the spare key?"),
      { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "notes.md" } }], timestamp: Date.now() },
      { role: "toolResult", toolCallId: "c1", content: "spare key: under the flowerpot", timestamp: Date.now() },
      assistant("The spare key is under the flowerpot."),
      user("thanks"),
      assistant("You are welcome."),
    );
    const result = await search(deps, "agent:main:main", { query: "flowerpot" });
    expect(result.results).toHaveLength(1);
    const [hit] = result.results;
    expect(hit).toMatchObject({ sessionKey: "agent:main:main", role: "assistant", snippet: "The spare key is under the flowerpot.", historyOffset: 2 });
    expect(hit.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    const page = sessionHistory(deps, caller("agent:main:main"), { sessionKey: hit.sessionKey, offset: hit.historyOffset, limit: 2 }) as Record<string, any>;
    expect(page.messages.map((m: any) => m.text)).toEqual(["where is the spare key?", "The spare key is under the flowerpot."]);
  });

  it("snippets are redacted; no hits is an empty list", async () => {
    const { store, deps } = setup();
    say(store, "agent:main:main", user("the vault password is hunter2-password, keep it"));
    expect((await search(deps, "agent:main:main", { query: "vault" })).results[0].snippet).toBe("the vault password is [redacted], keep it");
    expect(await search(deps, "agent:main:main", { query: "nothing-like-this" })).toEqual({ results: [] });
  });

  it("the hits of one answer stay under 32 KB, the best kept, and say they were cut", async () => {
    const { store, deps } = setup();
    // Control characters take six bytes each in JSON: 25 such snippets are far over the budget.
    for (let i = 0; i < 25; i += 1) say(store, `agent:main:s${i}`, user(`kiwi ${"\u0001".repeat(400)}`));
    say(store, "agent:main:main", user("hello"));
    const result = await search(deps, "agent:main:main", { query: "kiwi", limit: 25 });
    expect(result.truncated).toBe(true);
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results.length).toBeLessThan(25);
    expect(Buffer.byteLength(JSON.stringify(result.results))).toBeLessThanOrEqual(32 * 1024);
  });

  it("an index that cannot answer is a SESSION_SEARCH_UNAVAILABLE error", async () => {
    const { store, deps, index } = setup();
    say(store, "agent:main:main", user("hello"));
    await index.close();
    expect(await search(deps, "agent:main:main", { query: "hello" })).toMatchObject({ code: "SESSION_SEARCH_UNAVAILABLE" });
  });
});
