import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { allTextOf, chatRequests, lastMessageOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { makeAgentState, removeFastTempDirs, startOn, waitUntil } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * progressCard.refresh in a real gateway: a running turn takes the request at its next model
 * call, hidden from every client; otherwise the agent reconciles its card in a hidden
 * status-only turn (read-only tools and progress_card only, nothing in the transcript or the chat
 * events), after the run in progress; a retry with the same key starts nothing; no card,
 * nothing to refresh.
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
let releaseSteered: (() => void) | undefined;
let releaseCleared: (() => void) | undefined;
const STEERED_MARKDOWN = "Checked mid-run.";

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
    // The steered task (the last case): its first call is held, then calls a tool; the refresh joins its next call.
    const steered = allTextOf(req).includes("steered task");
    if (last.role === "tool") return { text: isRefresh(req) ? (steered ? "steered task done" : "card refreshed") : "ok" };
    if (isRefresh(req)) return { toolCalls: [{ name: "progress_card", arguments: { plan: REFRESHED, markdown: steered ? STEERED_MARKDOWN : "All checks passed." } }] };
    if (last.text === "plan it") return { toolCalls: [{ name: "progress_card", arguments: { plan: PLAN } }] };
    if (last.text === "steered task") {
      await new Promise<void>((resolve) => (releaseSteered = resolve));
      return { toolCalls: [{ name: "session_status", arguments: {} }] };
    }
    if (last.text === "cleared task") {
      await new Promise<void>((resolve) => (releaseCleared = resolve));
      return { toolCalls: [{ name: "session_status", arguments: {} }] };
    }
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

  it("a run whose final answer is its current model call: the refresh waits for it, runs as a hidden turn after it, and a second request while it waits joins it", async () => {
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

  it("a running turn takes the refresh at its next model call, hidden: the card is updated by that run, no client shows the request, no run of its own", async () => {
    const follower = await openOperator(gw.url, TOKEN);
    await follower.sock.request("sessions.messages.subscribe", { key: SESSION });
    const historyBefore = (await sock.request("chat.history", { sessionKey: SESSION, limit: 200 })).payload.messages;
    const framesFrom = sock.frames.length;
    const callsFrom = chatRequests(model.requests).length;
    const revision = (await sock.request("progressCard.get", { sessionKey: SESSION })).payload.card.revision;

    const task = randomUUID();
    expect((await sock.request("chat.send", { sessionKey: SESSION, message: "steered task", idempotencyKey: task })).ok).toBe(true);
    await waitUntil(() => releaseSteered !== undefined, 10_000, "the steered task's held first model call");
    const res = await refresh(randomUUID());
    expect(res.payload).toEqual({ runId: expect.stringMatching(/^progress-refresh:/), status: "accepted", revision });
    const joined = await refresh(randomUUID());
    expect(joined.payload.runId).toBe(res.payload.runId);

    releaseSteered!();
    await sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === task && f.payload.state === "final", 15_000);
    await waitChanged(revision + 1);
    expect((await sock.request("progressCard.get", { sessionKey: SESSION })).payload.card).toMatchObject({ revision: revision + 1, markdown: STEERED_MARKDOWN });

    // The run's second call carried the request after its tool result, with the card as it stood; the run kept all its tools.
    const calls = chatRequests(model.requests).slice(callsFrom);
    expect(calls.map((r) => lastMessageOf(r).role)).toEqual(["user", "user", "tool"]);
    expect(lastUserTextOf(calls[1]!)).toContain(`${REFRESH_MARK} `);
    expect(lastUserTextOf(calls[1]!)).toContain(`(revision ${revision})`);
    expect(allTextOf(calls[1]!)).toContain("steered task");
    expect(toolNamesOf(calls[1]!)).toContain("exec");

    // Its trace (the task's run) records the request as input that joined it.
    const trace = await traceOf(task);
    expect(trace).toMatchObject({ runId: task, source: "chat", outcome: "ok", output: "steered task done" });
    expect((trace.input as string[])[0]).toBe("steered task");
    expect((trace.input as string[])[1]).toContain(REFRESH_MARK);

    // The next turn: no hidden refresh turn ran before it, and the model still sees the request.
    await askAndWait(sock, SESSION, "after the steer");
    const later = chatRequests(model.requests).slice(callsFrom + 3);
    expect(later.map((r) => lastUserTextOf(r))).toEqual(["after the steer"]);
    expect(allTextOf(later[0]!)).toContain(REFRESH_MARK);

    // No client shows it: not chat.history, not session.message, not sessions.preview; no chat or agent event of its own.
    const history = (await sock.request("chat.history", { sessionKey: SESSION, limit: 200 })).payload.messages;
    expect(JSON.stringify(history)).not.toContain(REFRESH_MARK);
    expect(
      history
        .slice(historyBefore.length)
        .filter((m: any) => m.role === "user")
        .map((m: any) => m.content[0].text),
    ).toEqual(["steered task", "after the steer"]);
    const followed = follower.sock.frames.filter((f: Frame) => f.event === "session.message");
    expect(followed.length).toBeGreaterThan(0);
    expect(JSON.stringify(followed)).not.toContain(REFRESH_MARK);
    const preview = (await sock.request("sessions.preview", { keys: [SESSION], limit: 100 })).payload.previews[0];
    expect(preview.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(preview.items)).not.toContain(REFRESH_MARK);
    const runsSeen = new Set(sock.frames.slice(framesFrom).flatMap((f: Frame) => (f.event === "chat" || f.event === "agent" ? [f.payload.runId] : [])));
    expect(runsSeen.has(res.payload.runId)).toBe(false);
    expect(runsSeen.has(task)).toBe(true);
    follower.sock.close();
  });

  it("the request is built when the running turn takes it: a card cleared meanwhile leaves nothing to ask, and no refresh turn follows", async () => {
    const callsFrom = chatRequests(model.requests).length;
    const task = randomUUID();
    expect((await sock.request("chat.send", { sessionKey: SESSION, message: "cleared task", idempotencyKey: task })).ok).toBe(true);
    await waitUntil(() => releaseCleared !== undefined, 10_000, "the cleared task's held first model call");
    expect((await refresh(randomUUID())).payload.status).toBe("accepted");
    const cleared = await sock.request("progressCard.put", { sessionKey: SESSION });
    expect(cleared.payload.card).toBeNull();

    releaseCleared!();
    await sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === task && f.payload.state === "final", 15_000);
    // The lane runs in order: had a refresh turn followed the task, it would have run before this message.
    await askAndWait(sock, SESSION, "after the clear");
    const calls = chatRequests(model.requests).slice(callsFrom);
    expect(calls.map((r) => lastUserTextOf(r))).toEqual(["cleared task", "cleared task", "after the clear"]);
    // No new control message: each call carries only the one the steered task took before.
    const marks = (r: RecordedRequest) => allTextOf(r).split(REFRESH_MARK).length - 1;
    expect(calls.map(marks)).toEqual([1, 1, 1]);
  });
});
