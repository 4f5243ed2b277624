import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { allTextOf, chatRequests, lastMessageOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { makeAgentState, removeFastTempDirs, startOn, waitUntil } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * progressCard.refresh in a real gateway: the agent reconciles its card in a hidden status-only
 * turn (read-only tools and progress_card only, nothing in the transcript or the chat events),
 * after any run in progress; a retry with the same key starts nothing; no card, nothing to refresh.
 */
const TOKEN = "progress-refresh-token";
const SESSION = "agent:main:work";
const PLAN = [
  { step: "Inspect the failing route", status: "completed" },
  { step: "Repair the session owner", status: "in_progress" },
  { step: "Run focused verification", status: "pending" },
];
const REFRESHED = PLAN.map((s) => ({ ...s, status: "completed" }));
const REFRESH_MARK = "[Progress card refresh]";

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let releaseHeld: (() => void) | undefined;

const isRefresh = (req: RecordedRequest) => lastUserTextOf(req).startsWith(REFRESH_MARK);
const refreshRequests = () => chatRequests(model.requests).filter(isRefresh);
const refresh = (idempotencyKey: string, sessionKey = SESSION) => sock.request("progressCard.refresh", { sessionKey, idempotencyKey });
const waitChanged = (revision: number) =>
  sock.waitFor((f: Frame) => f.event === "progressCard.changed" && f.payload.sessionKey === SESSION && f.payload.revision === revision, 15_000);

/** The run's trace, once written (traces are written shortly after their run ends). */
async function traceOf(runId: string): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const res = await sock.request("traces.get", { runId });
    if (res.ok) return res.payload.trace;
  }
  throw new Error(`no trace of ${runId} within 15 s`);
}

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeAgentState(model);
  gw = await startOn(stateDir, TOKEN);
  sock = (await openOperator(gw.url, TOKEN)).sock;
  model.setResponder(async (req) => {
    const last = lastMessageOf(req);
    if (last.role === "tool") return { text: isRefresh(req) ? "card refreshed" : "ok" };
    if (isRefresh(req)) return { toolCalls: [{ name: "progress_card", arguments: { plan: REFRESHED, markdown: "All checks passed." } }] };
    if (last.text === "plan it") return { toolCalls: [{ name: "progress_card", arguments: { plan: PLAN } }] };
    if (last.text === "long task") await new Promise<void>((resolve) => (releaseHeld = resolve));
    return { text: `answer to ${last.text}` };
  });
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await model?.close();
  removeFastTempDirs();
});

describe("progressCard.refresh", { timeout: 90_000 }, () => {
  it("is refused for a session without a card, starting nothing", async () => {
    await askAndWait(sock, SESSION, "hello");
    const res = await refresh(randomUUID());
    expect(res.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringMatching(/^no progress card to refresh: agent:main:work has none/) });
    expect(refreshRequests()).toHaveLength(0);
  });

  it("runs a hidden status-only turn in which the agent rewrites the card; a retry with the same key starts nothing", async () => {
    await askAndWait(sock, SESSION, "plan it");
    await waitChanged(1);
    const historyBefore = (await sock.request("chat.history", { sessionKey: SESSION, limit: 200 })).payload.messages;

    const key = randomUUID();
    const res = await refresh(key);
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({ runId: expect.stringMatching(/^progress-refresh:/), status: "accepted", revision: 1 });
    await waitChanged(2);
    const card = (await sock.request("progressCard.get", { sessionKey: SESSION })).payload.card;
    expect(card).toMatchObject({ revision: 2, steps: REFRESHED, markdown: "All checks passed." });

    // The run has ended once its trace is written.
    const trace = await traceOf(res.payload.runId);
    expect(trace).toMatchObject({ runId: res.payload.runId, source: "internal", outcome: "ok" });

    // The turn saw the conversation and the card, and could only read and write the card.
    const [first, second] = refreshRequests();
    expect(allTextOf(first!)).toContain("plan it");
    expect(lastUserTextOf(first!)).toContain("1. [completed] Inspect the failing route");
    expect(lastUserTextOf(first!)).toContain("2. [in_progress] Repair the session owner");
    const offered = toolNamesOf(first!);
    expect(offered).toContain("progress_card");
    for (const name of offered)
      expect(["progress_card", "read", "memory_search", "memory_get", "session_status", "sessions_history", "sessions_list", "sessions_search", "get_goal"]).toContain(name);
    expect(offered).not.toContain("exec");
    expect(offered).not.toContain("message");
    expect(second).toBeDefined();

    // Hidden: neither the request nor the answer is in the transcript or on the chat events.
    const historyAfter = (await sock.request("chat.history", { sessionKey: SESSION, limit: 200 })).payload.messages;
    expect(historyAfter).toEqual(historyBefore);
    expect(JSON.stringify(historyAfter)).not.toContain(REFRESH_MARK);
    expect(sock.frames.some((f) => (f.event === "chat" || f.event === "agent") && f.payload?.runId === res.payload.runId)).toBe(false);

    // The same key again: the first answer, its baseline revision, and no second turn.
    const again = await refresh(key);
    expect(again.payload).toEqual(res.payload);
    expect(refreshRequests()).toHaveLength(2);
    const elsewhere = await refresh(key, "agent:main:main");
    expect(elsewhere.error?.message).toMatch(/already used to refresh another session's card/);
  });

  it("waits for the run in progress, and a second request while it waits joins it", async () => {
    const before = refreshRequests().length;
    const longTask = randomUUID();
    expect((await sock.request("chat.send", { sessionKey: SESSION, message: "long task", idempotencyKey: longTask })).ok).toBe(true);
    await waitUntil(() => releaseHeld !== undefined, 10_000, "the held model call");
    const first = await refresh(randomUUID());
    const second = await refresh(randomUUID());
    expect(first.payload.status).toBe("accepted");
    expect(second.payload.runId).toBe(first.payload.runId);
    expect(refreshRequests()).toHaveLength(before);

    releaseHeld!();
    await sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === longTask && f.payload.state === "final", 15_000);
    await waitChanged(3);
    // One refresh turn (a model call and the call after its tool result) for both requests, after the run.
    await waitUntil(() => refreshRequests().length >= before + 2, 10_000, "the refresh turn's call after its tool result");
    expect(refreshRequests()).toHaveLength(before + 2);
    const calls = chatRequests(model.requests);
    const longAt = calls.findIndex((r) => lastUserTextOf(r) === "long task");
    expect(calls.findIndex((r, i) => i > longAt && isRefresh(r))).toBeGreaterThan(longAt);
  });
});
