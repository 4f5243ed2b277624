import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { askAndWait, eventually } from "../helpers/chat-session.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, isSubagentRequest, lastMessageOf, lastToolResultOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { makeAgentState, readIndex, removeFastTempDirs, startOn, waitUntil } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * Session goals in a real gateway: the model creates, reads and completes the session's goal
 * through get_goal / create_goal / update_goal, the next request carries the result and the
 * active-goal line, clients read it on session rows and hear sessions.changed (reason goal),
 * invalid calls change nothing, `/goal …` works over the chat path, sessions.goal.update/clear
 * apply once per operation id (a resume starts the continuation turn, refused while the session
 * is busy), the goal survives a kill -9, a token budget limits it, /reset and
 * delete end it, the tool policy removes the tools, and a provider's billing failure pauses it.
 */
const TOKEN = "session-goal-token";
const SESSION = "agent:main:work";
const OBJECTIVE = "Get CI green\u202E and push the fix";

/** What the model does for each user message of these tests (the active-goal line may come first). */
const CALLS: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  "set a goal": { name: "create_goal", arguments: { objective: OBJECTIVE } },
  "another goal": { name: "create_goal", arguments: { objective: "Something else" } },
  "pause yourself": { name: "update_goal", arguments: { status: "paused" } },
  "what is the goal": { name: "get_goal", arguments: {} },
  "we are done": { name: "update_goal", arguments: { status: "complete", note: "verified" } },
  "budgeted goal": { name: "create_goal", arguments: { objective: "Small job", token_budget: 50 } },
};

/** While set, the model holds its answer to "hold on" midway until this settles (a run under way). */
let holdRun: Promise<void> | undefined;

let model: FakeModelServer;
let stateDir: string;
let gw: GatewayProcess;
let sock: TestSocket;

async function startGateway(): Promise<void> {
  gw = await startOn(stateDir, TOKEN);
  sock = (await openOperator(gw.url, TOKEN)).sock;
  expect((await sock.request("sessions.subscribe", {})).ok).toBe(true);
}

/** The user's own words of a request: its last user message without the active-goal line before it. */
const userWords = (text: string) => text.split("\n\n").at(-1) ?? "";

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeAgentState(model);
  await startGateway();
  model.setResponder((req) => {
    if (isSubagentRequest(req)) return { text: "child done" };
    const last = lastMessageOf(req);
    if (last.role === "tool") return { text: "ok" };
    if (last.role === "user" && last.text === "spawn a helper") return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "Help out." } }] };
    if (last.role === "user" && userWords(last.text) === "hold on") return { text: "held", ...(holdRun ? { holdMidway: holdRun } : {}) };
    const call = CALLS[userWords(last.text)];
    return call ? { toolCalls: [call] } : { text: "ok" };
  });
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await model?.close();
  removeFastTempDirs();
});

const ask = async (message: string, sessionKey = SESSION) => {
  const before = chatRequests(model.requests).length;
  const final = await askAndWait(sock, sessionKey, message, 15_000);
  expect(final.payload.state).toBe("final");
  return chatRequests(model.requests).slice(before);
};
/** A chat command's reply over chat.send (the gateway answers it; no model call). */
const command = async (message: string, sessionKey = SESSION) => {
  const key = randomUUID();
  const res = await sock.request("chat.send", { sessionKey, message, idempotencyKey: key });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  const final = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 15_000);
  return JSON.stringify(final.payload.message);
};
const goalOf = async (sessionKey = SESSION) => {
  const res = await sock.request("sessions.describe", { key: sessionKey });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload.session?.goal ?? null;
};
const waitGoalChanged = (check: (goal: any) => boolean, sessionKey = SESSION) =>
  sock.waitFor((f: Frame) => f.event === "sessions.changed" && f.payload.sessionKey === sessionKey && f.payload.reason === "goal" && check(f.payload.goal), 10_000);
const operation = (goalId: string, fields: Record<string, unknown>) => ({ sessionKey: SESSION, goalId, operationId: randomUUID(), issuedAtMs: Date.now(), ...fields });

describe("session goals in a gateway", { timeout: 120_000 }, () => {
  it("advertises the goal methods and offers the goal tools", async () => {
    const { sock: other, hello } = await openOperator(gw.url, TOKEN);
    other.close();
    expect(hello.features.methods).toEqual(expect.arrayContaining(["sessions.goal.update", "sessions.goal.clear"]));
    const effective = (await sock.request("tools.effective", { sessionKey: SESSION })).payload;
    expect(effective.groups[0].tools.map((t: any) => t.id)).toEqual(expect.arrayContaining(["get_goal", "create_goal", "update_goal"]));
    const catalog = (await sock.request("tools.catalog", {})).payload;
    expect(catalog.groups.flatMap((g: any) => g.tools.map((t: any) => t.id))).toEqual(expect.arrayContaining(["get_goal", "create_goal", "update_goal"]));
  });

  it("the model creates the session's goal: the result goes back to it, clients read it and hear of it, later turns carry the active-goal line", async () => {
    const changed = waitGoalChanged((g) => g?.status === "active");
    const requests = await ask("set a goal");
    expect(toolNamesOf(requests[0]!)).toEqual(expect.arrayContaining(["get_goal", "create_goal", "update_goal"]));
    // No goal yet: the first request has no active-goal line.
    expect(lastUserTextOf(requests[0]!)).toBe("set a goal");
    const result = lastToolResultOf(requests[1]!)!;
    // The bidi override is gone from the stored objective.
    expect(result).toMatchObject({ status: "created", goal: { objective: "Get CI green and push the fix", status: "active", schemaVersion: 1 } });
    expect((await changed).payload.goal.objective).toBe("Get CI green and push the fix");
    expect(await goalOf("work")).toMatchObject({ id: result.goal.id, objective: "Get CI green and push the fix", status: "active" });
    const next = await ask("what is the goal");
    expect(lastUserTextOf(next[0]!)).toMatch(/^Active goal: Get CI green and push the fix — .*\n\nwhat is the goal$/s);
    expect(lastToolResultOf(next[1]!)).toMatchObject({ status: "found", goal: { objective: "Get CI green and push the fix" } });
    // The transcript keeps the message as sent, without the line.
    const history = (await sock.request("chat.history", { sessionKey: SESSION, limit: 100 })).payload.messages;
    expect(JSON.stringify(history)).not.toContain("Active goal:");
  });

  it("invalid calls are tool errors that leave the goal as it was", async () => {
    const before = await goalOf();
    const again = await ask("another goal");
    expect(lastToolResultOf(again[1]!)).toMatchObject({ error: "GOAL_NOT_CHANGED", message: "The goal was not changed: goal already exists." });
    const pause = await ask("pause yourself");
    // Pausing is the operator's: update_goal's schema takes complete or blocked only.
    expect(lastToolResultOf(pause[1]!)).toMatchObject({ error: "INVALID_ARGUMENT", message: expect.stringContaining("status") });
    const after = await goalOf();
    expect({ ...after, tokensUsed: 0 }).toEqual({ ...before, tokensUsed: 0 });
  });

  it("/goal over the chat path: show, edit, pause (no active-goal line while paused), resume (a continue turn with it)", async () => {
    expect(await command("/goal")).toContain("Status: active");
    expect(await command("/goal edit Get CI green,\n  push, update docs")).toContain("Goal updated: Get CI green,");
    // Explicit actions keep the objective's line breaks and spacing.
    expect((await goalOf()).objective).toBe("Get CI green,\n  push, update docs");
    expect(await command("/goal pause waiting for CI")).toContain("Goal paused: Get CI green,");
    expect(await goalOf()).toMatchObject({ status: "paused", lastStatusNote: "waiting for CI" });
    const paused = await ask("hello");
    expect(lastUserTextOf(paused[0]!)).toBe("hello");
    const resumed = await ask("/goal resume");
    // The line puts the objective on one line.
    expect(lastUserTextOf(resumed[0]!)).toMatch(/^Active goal: Get CI green, push, update docs — .*\n\nContinue pursuing the current goal\.$/s);
    expect((await goalOf()).status).toBe("active");
    expect(await command("/goal start a second one")).toContain("Goal error: goal already exists");
    // OpenClaw's structured Goal start through chat.send is refused, not ignored.
    const intent = await sock.request("chat.send", {
      sessionKey: "agent:main:other",
      message: "ship it",
      idempotencyKey: randomUUID(),
      intent: { kind: "session-goal-start", version: 1, issuedAtMs: Date.now() },
    });
    expect(intent.error?.message).toMatch(/^not supported: chat\.send intent/);
  });

  it("sessions.goal.update applies an operation once, refuses a reused id, a stale goal id and an expired request", async () => {
    const goal = await goalOf();
    const op = operation(goal.id, { action: "pause", note: "lunch" });
    const first = await sock.request("sessions.goal.update", op);
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.payload).toMatchObject({ operationId: op.operationId, action: "pause", goalId: goal.id, status: "updated", goal: { status: "paused", lastStatusNote: "lunch" } });
    expect((await sock.request("sessions.goal.update", op)).payload).toMatchObject({ replayed: true, status: "updated" });
    const reused = await sock.request("sessions.goal.update", { ...op, note: "dinner" });
    expect(reused.error).toMatchObject({ code: "INVALID_REQUEST", message: "goal not changed: goal operation id was already used for a different request" });
    const stale = await sock.request("sessions.goal.update", operation("not-this-goal", { action: "resume" }));
    expect(stale.error?.message).toBe("goal not changed: goal changed or was cleared; refresh before trying again");
    const expired = await sock.request("sessions.goal.update", { ...operation(goal.id, { action: "resume" }), issuedAtMs: Date.now() - 25 * 3_600_000 });
    expect(expired.error?.message).toMatch(/expired/);
    const tooLong = await sock.request("sessions.goal.update", operation(goal.id, { action: "edit", objective: "x".repeat(16_001) }));
    expect(tooLong.ok).toBe(false);
    expect((await goalOf()).lastStatusNote).toBe("lunch");
  });

  it("sessions.goal.update resume starts the goal's continuation turn: the receipt names its run, the model gets the continue instruction, chats do not show it, a replay starts nothing", async () => {
    const goal = await goalOf();
    expect(goal.status).toBe("paused");
    const before = chatRequests(model.requests).length;
    const op = operation(goal.id, { action: "resume", note: "after lunch" });
    const changed = waitGoalChanged((g) => g?.status === "active");
    const final = sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === op.operationId && f.payload.state === "final", 15_000);
    const res = await sock.request("sessions.goal.update", op);
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({
      operationId: op.operationId,
      action: "resume",
      sessionId: expect.any(String),
      goalId: goal.id,
      status: "started",
      runId: op.operationId,
      goal: expect.objectContaining({ id: goal.id, status: "active", lastStatusNote: "after lunch" }),
    });
    await changed;
    expect((await final).payload.sessionKey).toBe(SESSION);
    const continued = chatRequests(model.requests).slice(before);
    expect(continued).toHaveLength(1);
    expect(lastUserTextOf(continued[0]!)).toMatch(/^Active goal: Get CI green, push, update docs — .*\n\nContinue pursuing the current goal\. Note: after lunch$/s);

    // The same operation again answers the first receipt and starts no second turn: the next
    // message's turn is the only model call after the continuation's.
    const replay = await sock.request("sessions.goal.update", op);
    expect(replay.payload).toEqual({ ...res.payload, replayed: true });
    await ask("hello after the resume");
    const after = chatRequests(model.requests).slice(before);
    expect(after.map((r) => userWords(lastUserTextOf(r)))).toEqual(["Continue pursuing the current goal. Note: after lunch", "hello after the resume"]);

    // The continue instruction is the agent's input, not a person's message: the chat shows the reply only.
    const history = (await sock.request("chat.history", { sessionKey: SESSION, limit: 1000 })).payload.messages;
    expect(JSON.stringify(history)).not.toContain("Note: after lunch");
    const preview = (await sock.request("sessions.preview", { keys: [SESSION], limit: 50 })).payload.previews[0];
    expect(preview.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(preview.items)).not.toContain("Note: after lunch");
    expect(history.slice(-4).map((m: any) => [m.role, m.content[0].text])).toEqual([
      ["assistant", "ok"],
      ["assistant", "ok"],
      ["user", "hello after the resume"],
      ["assistant", "ok"],
    ]);
  });

  it("a resume while the session has a run under way is refused as busy and changes nothing (so is one whose operationId names a chat run); the same request succeeds once it is idle", async () => {
    const goal = await goalOf();
    const paused = await sock.request("sessions.goal.update", operation(goal.id, { action: "pause" }));
    expect(paused.payload.goal.status).toBe("paused");
    let release!: () => void;
    holdRun = new Promise<void>((resolve) => (release = resolve));
    const heldKey = randomUUID();
    const before = chatRequests(model.requests).length;
    expect((await sock.request("chat.send", { sessionKey: SESSION, message: "hold on", idempotencyKey: heldKey })).ok).toBe(true);
    await waitUntil(() => chatRequests(model.requests).length > before, 15_000, "the held run's model call");
    const op = operation(goal.id, { action: "resume" });
    const busy = await sock.request("sessions.goal.update", op);
    expect(busy.error).toMatchObject({ code: "UNAVAILABLE", retryable: true, details: { reason: "goal-session-busy" } });
    expect(busy.error.message).toMatch(/^goal not changed: this session still has active or queued work/);
    expect((await goalOf()).status).toBe("paused");
    const heldFinal = sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === heldKey && f.payload.state === "final", 15_000);
    release();
    holdRun = undefined;
    await heldFinal;
    // The continuation's run id is the operationId: one that already names a chat run is refused.
    const reusedKey = await sock.request("sessions.goal.update", { ...operation(goal.id, { action: "resume" }), operationId: heldKey });
    expect(reusedKey.error?.message).toBe("goal not changed: this operationId already names a chat run; use a new operationId");
    expect((await goalOf()).status).toBe("paused");
    await eventually(async () => expect((await sock.request("chat.history", { sessionKey: SESSION, limit: 1 })).payload.sessionInfo.hasActiveRun).toBe(false), 10_000);
    const final = sock.waitFor((f: Frame) => f.event === "chat" && f.payload.runId === op.operationId && f.payload.state === "final", 15_000);
    const retried = await sock.request("sessions.goal.update", op);
    expect(retried.payload).toMatchObject({ status: "started", runId: op.operationId, goal: { status: "active" } });
    await final;
  });

  it("survives a kill -9 and a restart on the same state dir", async () => {
    const before = await goalOf();
    sock.close();
    await gw.stop("SIGKILL");
    await startGateway();
    // The goal's fields are as answered; its token count follows the session's usage counters,
    // which the last turn may have left in memory only.
    const after = await goalOf();
    expect({ ...after, tokensUsed: 0 }).toEqual({ ...before, tokensUsed: 0 });
    expect(after.tokensUsed).toBeLessThanOrEqual(before.tokensUsed);
    expect(readIndex(stateDir)[SESSION].goal.id).toBe(before.id);
  });

  it("the model completes it; a complete goal is terminal until cleared", async () => {
    const done = await ask("we are done");
    expect(lastToolResultOf(done[1]!)).toMatchObject({ status: "updated", goal: { status: "complete", lastStatusNote: "verified" } });
    expect(await command("/goal resume")).toContain("Goal error: goal is already complete");
    const plain = await ask("hello again");
    expect(lastUserTextOf(plain[0]!)).toBe("hello again");
    const goal = await goalOf();
    const clear = await sock.request("sessions.goal.clear", operation(goal.id, {}));
    expect(clear.payload).toMatchObject({ status: "cleared", goalId: goal.id });
    expect(clear.payload.goal).toBeUndefined();
    expect(await goalOf()).toBeNull();
    expect(await command("/goal clear")).toContain("No goal to clear.");
  });

  it("a token budget counts the session's recorded usage and stops the goal at the limit", async () => {
    const scratch = "agent:main:budget";
    await ask("budgeted goal", scratch);
    // Two model calls of 37 tokens each went past the 50-token budget.
    const goal = await goalOf(scratch);
    expect(goal).toMatchObject({ status: "budget_limited", tokenBudget: 50, tokensUsed: 74 });
    expect(await command("/goal", scratch)).toContain("Token budget: 74/50");
    const next = await ask("carry on", scratch);
    expect(lastUserTextOf(next[0]!)).toBe("carry on");
    expect(await command("/goal resume", scratch)).toBeDefined();
    expect((await goalOf(scratch)).status).toBe("active");
  });

  it("a sub-agent is offered the goal tools too (for its own session's goal), as OpenClaw offers them", async () => {
    const before = model.requests.length;
    await ask("spawn a helper", "agent:main:main");
    await waitUntil(() => model.requests.slice(before).some(isSubagentRequest), 15_000, "the sub-agent's model call");
    const child = chatRequests(model.requests.slice(before)).find(isSubagentRequest)!;
    expect(toolNamesOf(child)).toEqual(expect.arrayContaining(["get_goal", "create_goal", "update_goal"]));
    expect(toolNamesOf(child)).not.toContain("progress_card");
  });

  it("/reset ends the goal and tells clients; a deleted session's goal goes with it", async () => {
    expect(await command("/goal start tidy up")).toBeDefined();
    expect((await goalOf())?.objective).toBe("tidy up");
    const cleared = sock.waitFor((f: Frame) => f.event === "sessions.changed" && f.payload.sessionKey === SESSION && f.payload.reason === "reset", 10_000);
    expect((await sock.request("chat.send", { sessionKey: SESSION, message: "/reset", idempotencyKey: randomUUID() })).ok).toBe(true);
    expect((await cleared).payload.goal).toBeNull();
    expect(await goalOf()).toBeNull();
    const scratch = "agent:main:budget";
    expect((await sock.request("sessions.delete", { key: scratch })).ok).toBe(true);
    expect(await goalOf(scratch)).toBeNull();
    expect(readIndex(stateDir)[scratch]).toBeUndefined();
  });
});

describe("tools.deny", { timeout: 60_000 }, () => {
  it("naming the goal tools (or group:agents) removes them from every run, while /goal still answers", async () => {
    const denyModel = await startFakeModelServer();
    const denyState = makeAgentState(denyModel, { extra: { tools: { deny: ["get_goal", "create_goal", "update_goal"] } } });
    const denyGw = await startOn(denyState, TOKEN);
    const denySock = (await openOperator(denyGw.url, TOKEN)).sock;
    try {
      denyModel.setResponder(() => ({ text: "ok" }));
      const final = await askAndWait(denySock, "main", "hello", 15_000);
      expect(final.payload.state).toBe("final");
      const names = toolNamesOf(chatRequests(denyModel.requests).at(-1)!);
      expect(names).toContain("read");
      expect(names).not.toContain("get_goal");
      expect(names).not.toContain("create_goal");
      expect(names).not.toContain("update_goal");
      const effective = (await denySock.request("tools.effective", { sessionKey: "main" })).payload;
      expect(effective.groups[0].tools.map((t: any) => t.id)).not.toContain("create_goal");
    } finally {
      denySock.close();
      await denyGw.stop("SIGKILL");
      await denyModel.close();
    }
  });
});

describe("a provider's quota or billing failure", { timeout: 60_000 }, () => {
  it("pauses the goal with the error as its note, as any failed turn does (nothing here sets usage_limited, as in OpenClaw)", async () => {
    const billingModel = await startFakeModelServer();
    const billingState = makeAgentState(billingModel);
    const billingGw = await startOn(billingState, TOKEN);
    const billingSock = (await openOperator(billingGw.url, TOKEN)).sock;
    try {
      billingModel.setResponder(() => ({ status: 402 }));
      const key = randomUUID();
      expect((await billingSock.request("chat.send", { sessionKey: SESSION, message: "/goal start Ship the release", idempotencyKey: key })).ok).toBe(true);
      const ended = await billingSock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error"].includes(f.payload.state), 15_000);
      expect(ended.payload.state).toBe("error");
      const goal = (await billingSock.request("sessions.describe", { key: SESSION })).payload.session.goal;
      expect(goal).toMatchObject({ objective: "Ship the release", status: "paused" });
      expect(goal.lastStatusNote).toMatch(/^HTTP 402: /);
    } finally {
      billingSock.close();
      await billingGw.stop("SIGKILL");
      await billingModel.close();
    }
  });
});
