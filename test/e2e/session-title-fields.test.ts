import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `sessions.list` / `sessions.describe` with the flags OpenClaw's TUI picker, Control UI and CLI
 * send: `includeDerivedTitles` (derivedTitle), `includeLastMessage` (lastMessagePreview) and
 * `configuredAgentsOnly`, through a real gateway over WebSocket.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;

/** A transcript written before the gateway starts (the store restores its session from the header). */
function writeTranscript(agentId: string, rest: string, messages: Record<string, unknown>[]): void {
  const dir = path.join(stateDir, "agents", agentId, "sessions");
  fs.mkdirSync(dir, { recursive: true });
  const sessionId = randomUUID();
  const now = Date.now() - 60_000;
  const header = { type: "session", version: 3, id: sessionId, timestamp: new Date(now).toISOString(), cwd: stateDir, sessionKey: `agent:${agentId}:${rest}`, agentId };
  let parentId: string | null = null;
  const lines: unknown[] = [header];
  for (const [i, message] of messages.entries()) {
    const id = i.toString(16).padStart(8, "0");
    lines.push({ type: "message", id, parentId, timestamp: new Date(now + i).toISOString(), message: { timestamp: now + i, ...message } });
    parentId = id;
  }
  fs.writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}

const user = (text: string, idempotencyKey?: string) => ({ role: "user", content: text, ...(idempotencyKey ? { idempotencyKey } : {}) });
const assistant = (text: string, answers?: string[]) => ({ role: "assistant", content: [{ type: "text", text }], ...(answers ? { answers } : {}) });

const FIRST = "[Telegram Alice (@alice) id:42] Hello there. Review the cache layer and explain why it misses on every second request.";
const FILLER = "x".repeat(2_000);

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeTempDir("session-title-fields-");
  // 300 turns (about 1.2 MB): the title comes from the head, the preview from the tail.
  const long: Record<string, unknown>[] = [user(FIRST, "k0"), assistant("Looking.", ["k0"])];
  for (let i = 1; i < 300; i += 1) long.push(user(`question ${i} ${FILLER}`, `k${i}`), assistant(`answer ${i} ${FILLER}`, [`k${i}`]));
  long.push(user("and now?", "k-last"), assistant("## Summary\n- the **cache** is `warm` now, see [the notes](https://example.com)", ["k-last"]));
  writeTranscript("main", "long", long);
  // A message that arrived while the turn before it ran is written before that turn's answer; it shows after it.
  // The earlier question is large, so the 64 KiB window at the end starts inside that turn.
  writeTranscript("main", "queued", [user(`first question ${"y".repeat(100_000)}`, "q1"), user("still there?", "q2"), assistant(`first answer ${"z".repeat(40_000)}`, ["q1"])]);
  // The answer is a control reply: the preview is the message before it; the first message is a chat command.
  writeTranscript("main", "silent", [user("/status"), assistant("ok"), user("ping", "s1"), assistant("NO_REPLY", ["s1"])]);
  // An agent the config no longer names.
  writeTranscript("old", "main", [user("hello from a removed agent")]);
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  ({ sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] }));
}, 60_000);
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

async function listRow(key: string, params: Record<string, unknown>) {
  const res = await sock.request("sessions.list", { limit: 1_000, ...params });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload.sessions.find((s: { key: string }) => s.key === key);
}

describe("sessions.list with includeDerivedTitles and includeLastMessage", () => {
  it("gives a session its title from the first user message and its last message, and neither without the flags", async () => {
    model.enqueue({ text: "**Done**: the build passes now." });
    const runId = randomUUID();
    await sock.request("chat.send", { sessionKey: "fresh", message: "fix the failing build. It breaks on CI", idempotencyKey: runId });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final");

    const row = await listRow("agent:main:fresh", { includeDerivedTitles: true, includeLastMessage: true });
    expect(row).toMatchObject({ derivedTitle: "Fix the failing build.", lastMessagePreview: "Done: the build passes now." });
    const plain = await listRow("agent:main:fresh", {});
    expect(plain).not.toHaveProperty("derivedTitle");
    expect(plain).not.toHaveProperty("lastMessagePreview");
    expect(await listRow("agent:main:fresh", { includeDerivedTitles: true })).not.toHaveProperty("lastMessagePreview");
    expect(await listRow("agent:main:fresh", { includeLastMessage: true })).not.toHaveProperty("derivedTitle");

    // The next answer is the new preview.
    model.enqueue({ text: "And the lint passes too." });
    const second = randomUUID();
    await sock.request("chat.send", { sessionKey: "fresh", message: "and lint?", idempotencyKey: second });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === second && f.payload.state === "final");
    expect(await listRow("agent:main:fresh", { includeDerivedTitles: true, includeLastMessage: true })).toMatchObject({
      derivedTitle: "Fix the failing build.",
      lastMessagePreview: "And the lint passes too.",
    });
  });

  it("reads a long transcript's ends: the title from its first message (envelope dropped, the task sentence, 60 characters), the preview flattened", async () => {
    const row = await listRow("agent:main:long", { includeDerivedTitles: true, includeLastMessage: true });
    expect(row.derivedTitle).toBe("Review the cache layer and explain why it misses on every…");
    expect(row.lastMessagePreview).toBe("Summary the cache is warm now, see the notes");
  });

  it("a label, else the display name, is the title; a long preview is cut to 240 characters", async () => {
    const created = await sock.request("sessions.create", { key: "named", label: "Release checklist", displayName: "Shown name" });
    expect(created.ok, JSON.stringify(created.error)).toBe(true);
    const shown = await sock.request("sessions.create", { key: "shown", displayName: "Shown name" });
    expect(shown.ok, JSON.stringify(shown.error)).toBe(true);
    expect((await listRow("agent:main:named", { includeDerivedTitles: true })).derivedTitle).toBe("Release checklist");
    expect((await listRow("agent:main:shown", { includeDerivedTitles: true })).derivedTitle).toBe("Shown name");
    // No messages yet: no preview.
    expect(await listRow("agent:main:shown", { includeLastMessage: true })).not.toHaveProperty("lastMessagePreview");

    model.enqueue({ text: "word ".repeat(100).trim() });
    const runId = randomUUID();
    await sock.request("chat.send", { sessionKey: "named", message: "go on", idempotencyKey: runId });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final");
    const preview = (await listRow("agent:main:named", { includeLastMessage: true })).lastMessagePreview;
    expect(preview).toBe(`${"word ".repeat(100).slice(0, 237)}...`);
  });

  it("the preview is the last message the conversation shows: a queued message after the turn it waited for, not a control reply", async () => {
    expect((await listRow("agent:main:queued", { includeLastMessage: true })).lastMessagePreview).toBe("still there?");
    const silent = await listRow("agent:main:silent", { includeDerivedTitles: true, includeLastMessage: true });
    expect(silent.lastMessagePreview).toBe("ping");
    // A chat command is no topic.
    expect(silent).not.toHaveProperty("derivedTitle");
  });
});

describe("sessions.describe with includeDerivedTitles and includeLastMessage", () => {
  it("adds derivedTitle and lastMessagePreview to the session, and neither without the flags", async () => {
    const described = await sock.request("sessions.describe", { key: "long", includeDerivedTitles: true, includeLastMessage: true });
    expect(described.payload.session).toMatchObject({
      key: "agent:main:long",
      derivedTitle: "Review the cache layer and explain why it misses on every…",
      lastMessagePreview: "Summary the cache is warm now, see the notes",
    });
    const plain = await sock.request("sessions.describe", { key: "long" });
    expect(plain.payload.session).not.toHaveProperty("derivedTitle");
    expect(plain.payload.session).not.toHaveProperty("lastMessagePreview");
  });
});

describe("sessions.list with configuredAgentsOnly", () => {
  it("leaves out sessions of agents the config does not name; without it, or with agentId, they are listed", async () => {
    const keys = async (params: Record<string, unknown>) =>
      ((await sock.request("sessions.list", { limit: 1_000, ...params })).payload.sessions as { key: string }[]).map((s) => s.key);
    expect(await keys({})).toContain("agent:old:main");
    expect(await keys({ includeGlobal: true, includeUnknown: true })).toContain("agent:old:main");
    const configured = await keys({ configuredAgentsOnly: true, includeGlobal: true, includeUnknown: true });
    expect(configured).not.toContain("agent:old:main");
    expect(configured).toContain("agent:main:long");
    expect(await keys({ configuredAgentsOnly: true, agentId: "old" })).toEqual(["agent:old:main"]);
  });
});
