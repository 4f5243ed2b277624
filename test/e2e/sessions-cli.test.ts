import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest } from "../fakes/model-server.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { runCli } from "../helpers/gateway-process.js";
import { KEYS, startPtyCli } from "../helpers/pty-session.js";

/**
 * `openclaw sessions list|delete|compact` against a real gateway whose agents talk to the fake
 * model: sessions are made by `openclaw agent` turns, then listed, deleted (asked for, refused
 * without --yes off a terminal, previewed with --dry-run) and compacted (the fake model writes the
 * summary), in text and --json, with unknown keys and agents failing by name.
 */

/** About 3,000 tokens: four turns fill most of the 20,000-token window, so a manual compaction has older turns to summarize. */
const LONG_REPLY = "Long answer. ".repeat(920);

const fakes = useFakeModelGateway({
  operator: true,
  configure: (config) => {
    config.models.providers.fake.models = [{ id: "fake-model", contextWindow: 20_000, maxTokens: 1024 }];
    config.agents.defaults.skipBootstrap = true;
    config.agents.entries = { main: {}, work: {} };
  },
});

beforeEach(() => {
  fakes.model.setResponder((request) => (isSummaryRequest(request) ? fakeSummaryReply(request) : { text: LONG_REPLY }));
});

const env = () => ({ OPENCLAW_STATE_DIR: fakes.stateDir, OPENCLAW_GATEWAY_TOKEN: fakes.gw.token!, OPENCLAW_GATEWAY_PORT: String(fakes.gw.port) });
const cli = (...args: string[]) => runCli(args, env(), 60_000);

/** One `openclaw agent` turn in the session (a bare key is the default agent's). */
async function turn(sessionKey: string, message = "hi", agent?: string): Promise<void> {
  const { code, output } = await cli("agent", "-m", message, "--session-key", sessionKey, ...(agent ? ["--agent", agent] : []));
  expect(code, output).toBe(0);
}

async function listedKeys(agent?: string): Promise<string[]> {
  const { code, output } = await cli("sessions", "list", "--json", ...(agent ? ["--agent", agent] : []));
  expect(code, output).toBe(0);
  return JSON.parse(output).sessions.map((s: { key: string }) => s.key);
}

async function transcriptOf(key: string): Promise<string> {
  const { payload } = await fakes.sock.request("sessions.describe", { key });
  return payload.session.sessionFile;
}

/** The table without its "updated … ago" column, whose width changes as time passes. */
const withoutAges = (table: string) => table.replace(/\d+[a-z]+ ago/g, "").replace(/ +/g, " ");

describe("openclaw sessions list", { timeout: 120_000 }, () => {
  it("is the default: bare `sessions` with flags prints what `sessions list` prints", async () => {
    await turn("listed-a");
    await turn("listed-b");
    const explicit = await cli("sessions", "list", "--json", "--limit", "50");
    const bare = await cli("sessions", "--json", "--limit", "50");
    expect(explicit.code, explicit.output).toBe(0);
    expect(bare.code, bare.output).toBe(0);
    const keysOf = (output: string) => JSON.parse(output).sessions.map((s: { key: string }) => s.key);
    expect(keysOf(explicit.output)).toEqual(expect.arrayContaining(["agent:main:listed-a", "agent:main:listed-b"]));
    expect(keysOf(bare.output)).toEqual(keysOf(explicit.output));

    const table = await cli("sessions", "list");
    expect(table.code, table.output).toBe(0);
    expect(table.output).toMatch(/^KEY +UPDATED +TOKENS +MODEL/);
    expect(table.output).toContain("agent:main:listed-a");
    expect(withoutAges((await cli("sessions")).output)).toBe(withoutAges(table.output));

    const nobody = await cli("sessions", "list", "--agent", "nobody");
    expect(nobody.code).toBe(1);
    expect(nobody.output).toBe('openclaw: unknown agent "nobody"; known agents: main, work\n');
  });
});

describe("openclaw sessions delete", { timeout: 120_000 }, () => {
  it("--yes deletes the session: gone from the list, its transcript archived as <file>.deleted.<timestamp>", async () => {
    await turn("doomed");
    const transcript = await transcriptOf("agent:main:doomed");
    expect(fs.existsSync(transcript)).toBe(true);

    const { code, output } = await cli("sessions", "delete", "agent:main:doomed", "--yes");
    expect(code, output).toBe(0);
    expect(output).toBe("Deleted session agent:main:doomed.\n");
    expect(await listedKeys()).not.toContain("agent:main:doomed");
    expect(fs.existsSync(transcript)).toBe(false);
    const archives = fs.readdirSync(path.dirname(transcript)).filter((name) => name.startsWith(`${path.basename(transcript)}.deleted.`));
    expect(archives).toHaveLength(1);
  });

  it("on a terminal it asks once: no cancels and keeps the sessions, yes deletes them", async () => {
    await turn("asked-a");
    await turn("asked-b");
    const declined = startPtyCli(["sessions", "delete", "agent:main:asked-a", "asked-b"], env());
    await declined.waitFor("Delete 2 sessions and remove live transcript state?");
    declined.send(`n${KEYS.enter}`);
    await declined.waitFor("Cancelled.");
    expect(await declined.exited).toBe(0);
    expect(await listedKeys()).toEqual(expect.arrayContaining(["agent:main:asked-a", "agent:main:asked-b"]));

    const accepted = startPtyCli(["sessions", "delete", "agent:main:asked-a", "asked-b"], env());
    await accepted.waitFor("Delete 2 sessions and remove live transcript state?");
    accepted.send(`y${KEYS.enter}`);
    await accepted.waitFor("Deleted session agent:main:asked-b.");
    expect(await accepted.exited).toBe(0);
    expect(accepted.screen()).toContain("Deleted session agent:main:asked-a.");
    const left = await listedKeys();
    expect(left).not.toContain("agent:main:asked-a");
    expect(left).not.toContain("agent:main:asked-b");
  });

  it("without --yes and without a terminal it refuses, says to pass --yes, and deletes nothing", async () => {
    await turn("kept");
    const text = await cli("sessions", "delete", "agent:main:kept");
    expect(text.code).toBe(1);
    expect(text.output).toBe("delete agent:main:kept: Deletion requires confirmation. Pass --yes to delete non-interactively.\n");

    const json = await cli("sessions", "delete", "agent:main:kept", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output)).toEqual({
      ok: false,
      error: { type: "cli_error", message: "Session delete did not complete for every requested key." },
      operation: "delete",
      dryRun: false,
      results: [{ key: "agent:main:kept", ok: false, status: "failed", error: "Deletion requires confirmation. Pass --yes to delete non-interactively." }],
    });
    expect(await listedKeys()).toContain("agent:main:kept");
  });

  it("--dry-run shows what would be deleted and deletes nothing; the main session would be refused", async () => {
    await turn("previewed");
    await turn("main");
    const text = await cli("sessions", "delete", "agent:main:previewed", "--dry-run");
    expect(text.code, text.output).toBe(0);
    expect(text.output).toBe("[dry-run] delete session agent:main:previewed and its live transcript state\n");

    const json = await cli("sessions", "delete", "previewed", "main", "--dry-run", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output)).toEqual({
      ok: false,
      error: { type: "cli_error", message: "Session delete did not complete for every requested key." },
      operation: "delete",
      dryRun: true,
      results: [
        { key: "agent:main:previewed", ok: true, status: "would_delete" },
        { key: "agent:main:main", ok: false, status: "failed", error: "Cannot delete the main session (agent:main:main)." },
      ],
    });
    expect(await listedKeys()).toEqual(expect.arrayContaining(["agent:main:previewed", "agent:main:main"]));

    // The real request is refused by the gateway, for the same reason.
    const real = await cli("sessions", "delete", "agent:main:main", "--yes");
    expect(real.code).toBe(1);
    expect(real.output).toBe("delete agent:main:main: the main session cannot be deleted (reset it instead)\n");
  });

  it("an unknown key fails by name while the others are deleted; --json reports one result per key, in order", async () => {
    await turn("one");
    await turn("two");
    const text = await cli("sessions", "delete", "agent:main:nope", "agent:main:one", "--yes");
    expect(text.code).toBe(1);
    expect(text.output).toContain("delete agent:main:nope: Session not found. Run openclaw sessions list --json to choose a valid key.\n");
    expect(text.output).toContain("Deleted session agent:main:one.\n");

    const json = await cli("sessions", "delete", "two", "ghost", "--agent", "main", "--yes", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output)).toEqual({
      ok: false,
      error: { type: "cli_error", message: "Session delete did not complete for every requested key." },
      operation: "delete",
      dryRun: false,
      results: [
        { key: "agent:main:two", ok: true, status: "deleted" },
        { key: "agent:main:ghost", ok: false, status: "not_found", error: "Session not found. Run openclaw sessions list --agent main --json to choose a valid key." },
      ],
    });
    const left = await listedKeys();
    expect(left).not.toContain("agent:main:one");
    expect(left).not.toContain("agent:main:two");
  });

  it("--agent makes bare keys that agent's, refuses another agent's full key, and must name a known agent", async () => {
    await turn("desk", "hi", "work");
    const wrongOwner = await cli("sessions", "delete", "agent:work:desk", "--agent", "main", "--yes");
    expect(wrongOwner.code).toBe(1);
    expect(wrongOwner.output).toBe('delete agent:work:desk: the key belongs to agent "work", not to --agent main: drop --agent or pass --agent work\n');

    const unknownAgent = await cli("sessions", "delete", "desk", "--agent", "nobody", "--yes");
    expect(unknownAgent.code).toBe(1);
    expect(unknownAgent.output).toBe('openclaw: unknown agent "nobody"; known agents: main, work\n');
    expect(await listedKeys("work")).toContain("agent:work:desk");

    const done = await cli("sessions", "delete", "desk", "--agent", "work", "--yes", "--json");
    expect(done.code, done.output).toBe(0);
    expect(JSON.parse(done.output)).toEqual({ ok: true, operation: "delete", dryRun: false, results: [{ key: "agent:work:desk", ok: true, status: "deleted" }] });
    expect(await listedKeys("work")).not.toContain("agent:work:desk");
  });
});

describe("openclaw sessions compact", { timeout: 180_000 }, () => {
  it("summarizes a session with some turns and prints the tokens before and after", async () => {
    for (let i = 1; i <= 4; i += 1) await turn("long-chat", `Turn ${i}`);
    const { code, output } = await cli("sessions", "compact", "agent:main:long-chat");
    expect(code, output).toBe(0);
    const [, before, after] = /^Compacted session agent:main:long-chat \((\d+) → (\d+) tokens\)\.\n$/.exec(output) ?? [];
    expect(Number(after), output).toBeLessThan(Number(before));
    expect(fakes.model.requests.some(isSummaryRequest)).toBe(true);
    const { payload } = await fakes.sock.request("sessions.describe", { key: "agent:main:long-chat" });
    expect(payload.session.entry.compactionCount).toBe(1);
  });

  it("--json prints the gateway's answer; a bare key with --agent is that agent's session", async () => {
    for (let i = 1; i <= 4; i += 1) await turn("work-chat", `Turn ${i}`, "work");
    const { code, output } = await cli("sessions", "compact", "work-chat", "--agent", "work", "--json");
    expect(code, output).toBe(0);
    const answer = JSON.parse(output);
    expect(answer).toMatchObject({ ok: true, key: "agent:work:work-chat", compacted: true, compactionCount: 1 });
    expect(answer.tokensAfter).toBeLessThan(answer.tokensBefore);
  });

  it("exits 1 with the gateway's reason when nothing was compacted", async () => {
    await turn("short-chat");
    const text = await cli("sessions", "compact", "short-chat");
    expect(text.code).toBe(1);
    expect(text.output).toBe("openclaw: Compaction failed for session agent:main:short-chat: the conversation is shorter than what compaction keeps.\n");

    const json = await cli("sessions", "compact", "agent:main:short-chat", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output)).toEqual({
      ok: false,
      key: "agent:main:short-chat",
      compacted: false,
      reason: "the conversation is shorter than what compaction keeps",
      error: { type: "cli_error", message: "Compaction failed for session agent:main:short-chat: the conversation is shorter than what compaction keeps." },
    });
  });

  it("an unknown session or agent fails by name", async () => {
    const text = await cli("sessions", "compact", "nope");
    expect(text.code).toBe(1);
    expect(text.output).toBe("openclaw: Compaction failed: session not found: agent:main:nope [INVALID_REQUEST]\n");

    const json = await cli("sessions", "compact", "nope", "--agent", "work", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output)).toEqual({
      ok: false,
      error: { type: "cli_error", message: "Compaction failed: session not found: agent:work:nope", code: "INVALID_REQUEST" },
    });

    const agent = await cli("sessions", "compact", "nope", "--agent", "nobody");
    expect(agent.code).toBe(1);
    expect(agent.output).toBe('openclaw: unknown agent "nobody"; known agents: main, work\n');
  });
});
