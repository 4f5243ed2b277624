import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * OpenClaw's own CLI (2026.9.6 from npm) against this gateway: each test sends the request the
 * real CLI sent for one command (captured through a WebSocket proxy) and checks the fields that
 * CLI reads from the answer, where a missing or misshaped field made the command fail.
 */

const CHAT = 111;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  stateDir = makeTempDir("openclaw-cli-wire-");
  const skillDir = path.join(stateDir, "workspace", "skills", "needs-a-tool");
  fs.mkdirSync(skillDir, { recursive: true });
  fs.writeFileSync(
    path.join(skillDir, "SKILL.md"),
    '---\nname: needs-a-tool\ndescription: Use when the tool is needed.\nmetadata: {"openclaw": {"emoji": "🔧", "requires": {"bins": ["no-such-binary-xyz"], "env": ["NO_SUCH_VAR_XYZ"]}}}\n---\nUse it.\n',
  );
  const channels = {
    telegram: { botToken: telegram.token, apiRoot: telegram.url, pollingTimeoutSeconds: 1, allowFrom: [String(CHAT)], typingIntervalSeconds: 0 },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { channels }) } });
  await gw.waitForOutput(/channel account started/, 10_000);
  ({ sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] }));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

const job = (name: string) => ({
  name,
  schedule: { kind: "every", everyMs: 3_600_000 },
  sessionTarget: "isolated",
  wakeMode: "now",
  payload: { kind: "agentTurn", message: `run ${name}` },
});

describe("openclaw cron list", () => {
  it("answers one inventory page with snapshotRevision, total, offset, limit, hasMore and nextOffset", async () => {
    for (const name of ["alpha", "beta", "gamma"]) expect((await sock.request("cron.add", job(name))).ok).toBe(true);
    // The CLI's request for `openclaw cron list`.
    const first = await sock.request("cron.list", { includeDisabled: false, limit: 2, offset: 0 });
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.payload).toMatchObject({ total: 3, offset: 0, limit: 2, hasMore: true, nextOffset: 2 });
    expect(first.payload.jobs).toHaveLength(2);
    expect(first.payload.snapshotRevision).toEqual(expect.any(String));
    expect(first.payload.snapshotRevision.length).toBeGreaterThan(0);

    const last = await sock.request("cron.list", { includeDisabled: false, limit: 2, offset: 2 });
    expect(last.payload).toMatchObject({ total: 3, offset: 2, limit: 2, hasMore: false, nextOffset: null, snapshotRevision: first.payload.snapshotRevision });
    expect(last.payload.jobs).toHaveLength(1);
  });

  it("changes snapshotRevision when the listed jobs change, so a CLI paging through restarts", async () => {
    const before = (await sock.request("cron.list", { includeDisabled: false, limit: 200, offset: 0 })).payload;
    expect((await sock.request("cron.add", job("delta"))).ok).toBe(true);
    const after = (await sock.request("cron.list", { includeDisabled: false, limit: 200, offset: 0 })).payload;
    expect(after.total).toBe(before.total + 1);
    expect(after.snapshotRevision).not.toBe(before.snapshotRevision);
  });

  it("names the agent each job runs as (effectiveAgentId), the default agent when the job names none", async () => {
    expect((await sock.request("cron.add", job("agent-check"))).ok).toBe(true);
    const page = (await sock.request("cron.list", { includeDisabled: false, limit: 200, offset: 0, query: "agent-check" })).payload;
    expect(page.jobs).toEqual([expect.objectContaining({ name: "agent-check", effectiveAgentId: "main" })]);
  });

  it("deliveryPreviews say where each job's result goes now, as the CLI's Delivery column shows them; includeDeliveryPreviews: false leaves them out", async () => {
    const add = async (name: string, delivery: Record<string, unknown>) => {
      const added = await sock.request("cron.add", { ...job(name), delivery });
      expect(added.ok, JSON.stringify(added.error)).toBe(true);
      return added.payload.id as string;
    };
    const explicit = await add("to-chat", { mode: "announce", channel: "telegram", to: String(CHAT) });
    const fromLast = await add("to-last", { mode: "announce", channel: "last" });
    const silent = await add("silent", { mode: "none" });
    const hook = await add("hooked", { mode: "webhook", to: "https://example.com/hook" });
    const previews = async () => (await sock.request("cron.list", { includeDisabled: false, limit: 200, offset: 0 })).payload.deliveryPreviews;
    let shown = await previews();
    expect(shown[explicit]).toEqual({ label: `announce -> telegram:${CHAT}`, detail: "explicit" });
    expect(shown[fromLast]).toEqual({
      label: "announce -> last",
      detail: expect.stringMatching(/^last -> no route, will fail-closed: delivery channel "last": the main session \(agent:main:main\) has no chat yet/),
    });
    expect(shown[silent]).toEqual({ label: "not requested", detail: "not requested" });
    expect(shown[hook]).toEqual({ label: "webhook:https://example.com/hook", detail: "webhook" });

    // Once the main session has talked in the Telegram DM, "last" is that chat.
    const replies = () => telegram.messages(CHAT).length;
    const before = replies();
    telegram.pushMessage({ chatId: CHAT, fromId: CHAT, text: "hello" });
    await telegram.waitFor(() => replies() > before, 15_000);
    shown = await previews();
    expect(shown[fromLast]).toEqual({ label: `announce -> telegram:${CHAT}`, detail: "resolved from last, main session" });
    const without = (await sock.request("cron.list", { includeDeliveryPreviews: false })).payload;
    expect(without.jobs.length).toBeGreaterThan(0);
    expect(without).not.toHaveProperty("deliveryPreviews");
  });

  it("an empty inventory is a valid page too", async () => {
    const page = (await sock.request("cron.list", { enabled: "disabled", limit: 200, offset: 0 })).payload;
    expect(page).toMatchObject({ jobs: [], total: 0, offset: 0, hasMore: false, nextOffset: null });
    expect(page.limit).toBeGreaterThanOrEqual(1);
    expect(page.snapshotRevision).toEqual(expect.any(String));
  });
});

/** The `message.action` request `openclaw message send --channel telegram --target 111 --message …` sends. */
const messageSend = (text: string, extra: Record<string, unknown> = {}) => ({
  channel: "telegram",
  action: "send",
  params: {
    pin: false,
    gifPlayback: false,
    forceDocument: false,
    silent: false,
    json: false,
    dryRun: false,
    verbose: false,
    channel: "telegram",
    target: String(CHAT),
    message: text,
    action: "send",
    to: `telegram:${CHAT}`,
    __sessionKey: "agent:main:main",
    __agentId: "main",
    ...extra,
  },
  senderIsOwner: true,
  agentId: "main",
  conversationReadOrigin: "direct-operator",
  idempotencyKey: randomUUID(),
});

describe("openclaw message send", () => {
  it("message.action send delivers the text to the chat once and answers with its message id", async () => {
    const request = messageSend("hello from the operator");
    const res = await sock.request("message.action", request);
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toMatchObject({ ok: true, channel: "telegram", chatId: String(CHAT) });
    const sent = telegram.messages(CHAT).filter((m) => m.text === "hello from the operator");
    expect(sent).toHaveLength(1);
    expect(res.payload.messageId).toMatch(/^\d+$/);

    // The same idempotency key again (a CLI retry after a timeout) is not sent twice.
    const again = await sock.request("message.action", request);
    expect(again.payload.messageId).toBe(res.payload.messageId);
    expect(telegram.messages(CHAT).filter((m) => m.text === "hello from the operator")).toHaveLength(1);
  });

  it("refuses what it would not carry out (a file, --pin, another action, a text with a reaction) naming it, and sends nothing", async () => {
    const before = telegram.messages(CHAT).length;
    const media = await sock.request("message.action", messageSend("with a file", { media: "/etc/hostname", mediaUrl: "/etc/hostname", mediaUrls: ["/etc/hostname"] }));
    expect(media.ok).toBe(false);
    expect(media.error.message).toContain("media");
    const pin = await sock.request("message.action", messageSend("pinned", { pin: true }));
    expect(pin.ok).toBe(false);
    expect(pin.error.message).toContain("pin");
    const pinAction = await sock.request("message.action", { ...messageSend("x"), action: "pin" });
    expect(pinAction.ok).toBe(false);
    expect(pinAction.error.message).toBe("Channel telegram does not support action pin.");
    const reactWithText = await sock.request("message.action", { ...messageSend("x"), action: "react" });
    expect(reactWithText.ok).toBe(false);
    expect(reactWithText.error.message).toBe("message.action react does not take params.message");
    expect(telegram.messages(CHAT)).toHaveLength(before);
  });
});

describe("openclaw models list", () => {
  it("the handshake names the published-model-catalog capability the CLI requires before it calls models.list", async () => {
    const { sock: fresh, hello } = await openOperator(gw.url, gw.token);
    fresh.close();
    expect(hello.features.capabilities).toContain("published-model-catalog");
  });

  it("models.list with includeDetails (the CLI's request) says whether each model's server is local", async () => {
    const res = await sock.request("models.list", { view: "default", includeDetails: true });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    // The fake model server listens on 127.0.0.1.
    expect(res.payload.models).toEqual([expect.objectContaining({ provider: "fake", id: "fake-model", contextWindow: 120000, input: ["text"], available: true, local: true })]);
    const plain = await sock.request("models.list", { view: "default" });
    expect(plain.payload.models[0]).not.toHaveProperty("local");
  });
});

describe("openclaw cron add / get / show / edit / run / rm", () => {
  it("cron.add, cron.get and cron.update answer the job itself, which the CLI prints and matches by id", async () => {
    const added = await sock.request("cron.add", job("epsilon"));
    expect(added.payload).toMatchObject({ id: expect.any(String), name: "epsilon", schedule: { kind: "every", everyMs: 3_600_000 } });
    const id = added.payload.id as string;
    expect((await sock.request("cron.get", { id })).payload).toMatchObject({ id, name: "epsilon" });
    const updated = await sock.request("cron.update", { id, patch: { enabled: false } });
    expect(updated.payload).toMatchObject({ id, enabled: false });
  });

  it("an id that names no job is refused as `cron job not found: <id>`, which `openclaw cron show <name>` takes as a cue to look the name up", async () => {
    for (const method of ["cron.get", "cron.update", "cron.remove", "cron.run"]) {
      const res = await sock.request(method, method === "cron.update" ? { id: "epsilon", patch: { enabled: true } } : { id: "epsilon" });
      expect(res.ok, method).toBe(false);
      expect(res.error.code).toBe("INVALID_REQUEST");
      expect(res.error.message, method).toContain("cron job not found: epsilon");
    }
  });

  it("cron.run answers {ok, enqueued, runId} (what `openclaw cron run --wait` waits on) and cron.runs takes status all", async () => {
    const id = (await sock.request("cron.add", job("zeta"))).payload.id as string;
    const run = await sock.request("cron.run", { id, mode: "force" });
    expect(run.payload).toMatchObject({ ok: true, enqueued: true, runId: expect.any(String) });
    const runs = await sock.request("cron.runs", { id, status: "all", limit: 50 });
    expect(runs.ok, JSON.stringify(runs.error)).toBe(true);
    const removed = await sock.request("cron.remove", { id });
    expect(removed.payload).toEqual({ ok: true, removed: true });
  });
});

describe("openclaw skills list", () => {
  it("skills.status reports every skill of the agent with its source, readiness and what it is missing", async () => {
    // The CLI's request; without an answer it lists the skills bundled with the CLI instead of this gateway's.
    const res = await sock.request("skills.status", { agentId: "main" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload.workspaceDir).toBe(path.join(stateDir, "workspace"));
    expect(res.payload.managedSkillsDir).toBe(path.join(stateDir, "skills"));
    const skills = res.payload.skills as Record<string, any>[];
    const needsTool = skills.find((s) => s.name === "needs-a-tool");
    expect(needsTool).toMatchObject({
      description: "Use when the tool is needed.",
      source: "openclaw-workspace",
      bundled: false,
      emoji: "🔧",
      eligible: false,
      disabled: false,
      blockedByAllowlist: false,
      blockedByAgentFilter: false,
      modelVisible: false,
      commandVisible: false,
      requirements: { bins: ["no-such-binary-xyz"], anyBins: [], env: ["NO_SUCH_VAR_XYZ"], config: [], os: [] },
      missing: { bins: ["no-such-binary-xyz"], anyBins: [], env: ["NO_SUCH_VAR_XYZ"], config: [], os: [] },
    });
    // The bundled skills are listed as bundled, and one that asks for nothing is ready.
    const bundled = skills.filter((s) => s.bundled);
    expect(bundled.length).toBeGreaterThan(0);
    expect(bundled.every((s) => s.source === "openclaw-bundled")).toBe(true);
    expect(skills.some((s) => s.eligible && s.modelVisible)).toBe(true);
  });

  it("an unknown agent is refused by name", async () => {
    const res = await sock.request("skills.status", { agentId: "nobody" });
    expect(res.ok).toBe(false);
    expect(res.error.message).toContain("nobody");
  });
});

describe("openclaw agent --deliver", () => {
  /** The `agent` request `openclaw agent --message … --deliver --channel telegram --to 111` sends. */
  const agentDeliver = (message: string, extra: Record<string, unknown> = {}) => ({
    message,
    agentId: "main",
    to: String(CHAT),
    deliver: true,
    channel: "telegram",
    timeout: 600,
    idempotencyKey: randomUUID(),
    ...extra,
  });

  it("sends the agent's reply to the chat named by channel and to, once", async () => {
    // A reply no other test's turn gives (cron runs of earlier tests may call the model meanwhile).
    model.setResponder((req) => ({ text: JSON.stringify(req.body).includes("please answer in the chat") ? "delivered answer" : "ok" }));
    const res = await sock.request("agent", agentDeliver("please answer in the chat"), 20_000);
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    const final = await sock.waitFor((f) => f.type === "res" && f.id === res.id && f.payload?.status === "ok", 20_000);
    expect(final.payload.summary).toBe("delivered answer");
    await telegram.waitFor(() => telegram.messages(CHAT).some((m) => m.text === "delivered answer"), 10_000);
    expect(telegram.messages(CHAT).filter((m) => m.text === "delivered answer")).toHaveLength(1);
  });

  it("refuses a delivery it cannot make before running the turn, naming why", async () => {
    const before = model.requests.length;
    const badTarget = await sock.request("agent", agentDeliver("x", { to: "not a chat!" }));
    expect(badTarget.ok).toBe(false);
    // With no sessionKey, `to` first picks the session: the chat it names is read there.
    expect(badTarget.error.message).toMatch(/^to: Telegram target "not a chat!" is not a chat id/);
    const unknownChannel = await sock.request("agent", agentDeliver("x", { channel: "whatsapp" }));
    expect(unknownChannel.ok).toBe(false);
    expect(unknownChannel.error.message).toContain("whatsapp");
    expect(model.requests.length).toBe(before);
  });
});

describe("openclaw status --json", () => {
  it("status with includeCliProjection answers the summary the CLI reads: sessions by agent, heartbeat per agent and the agent roster", async () => {
    const turn = await sock.request("agent", { message: "hello", agentId: "main", idempotencyKey: randomUUID() });
    await sock.waitFor((f) => f.type === "res" && f.id === turn.id && f.payload?.status === "ok", 20_000);
    // The CLI's request for `openclaw status --json`.
    const res = await sock.request("status", { includeChannelSummary: false, includeCliProjection: true });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    const summary = res.payload;
    expect(summary.sessions.count).toBeGreaterThanOrEqual(1);
    expect(summary.sessions.defaults).toEqual({ model: "fake/fake-model", contextTokens: 120000 });
    expect(summary.sessions.byAgent).toEqual([
      expect.objectContaining({ agentId: "main", path: path.join(stateDir, "agents", "main", "sessions", "sessions.json"), count: summary.sessions.count }),
    ]);
    expect(summary.sessions.byAgent[0].recent[0]).toMatchObject({ key: "agent:main:main", updatedAt: expect.any(Number), age: expect.any(Number) });
    expect(summary.heartbeat).toEqual({
      defaultAgentId: "main",
      agents: [expect.objectContaining({ agentId: "main", enabled: expect.any(Boolean), everyMs: expect.any(Number) })],
    });
    expect(summary.queuedSystemEvents).toEqual([]);
    expect(summary.channelSummary).toEqual([]);
    expect(summary.cliProjection.agents).toMatchObject({ defaultId: "main", selectionRequired: false, rows: [{ id: "main" }] });
  });
});

describe("openclaw sessions delete", () => {
  it("sessions.list takes the lookup the CLI pages through (archived all, offset) and answers nextOffset while there is more", async () => {
    for (const key of ["wire-del-a", "wire-del-b", "wire-del-c"]) {
      const turn = await sock.request("agent", { message: "hi", sessionKey: key, idempotencyKey: randomUUID() });
      await sock.waitFor((f) => f.type === "res" && f.id === turn.id && f.payload?.status === "ok", 20_000);
    }
    // The CLI's request for `openclaw sessions delete <keys…>`, one page at a time.
    const lookup = { limit: 2, archived: "all", includeGlobal: true, includeUnknown: true, configuredAgentsOnly: true };
    const first = await sock.request("sessions.list", lookup);
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.payload).toMatchObject({ count: 2, offset: 0, hasMore: true, nextOffset: 2 });
    const keys: string[] = first.payload.sessions.map((row: { key: string }) => row.key);
    for (let offset = first.payload.nextOffset; offset !== undefined; ) {
      const page = await sock.request("sessions.list", { ...lookup, offset });
      expect(page.ok, JSON.stringify(page.error)).toBe(true);
      keys.push(...page.payload.sessions.map((row: { key: string }) => row.key));
      offset = page.payload.nextOffset;
    }
    expect(new Set(keys).size).toBe(first.payload.totalCount);
    expect(keys).toEqual(expect.arrayContaining(["agent:main:wire-del-a", "agent:main:wire-del-b", "agent:main:wire-del-c"]));
    const archivedOnly = await sock.request("sessions.list", { archived: true });
    expect(archivedOnly.payload).toMatchObject({ count: 0, totalCount: 0, hasMore: false, sessions: [] });
  });
});
