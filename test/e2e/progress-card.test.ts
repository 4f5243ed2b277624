import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, isSubagentRequest, lastMessageOf, lastToolResultOf, toolNamesOf } from "../helpers/model-request.js";
import { makeAgentState, readIndex, removeFastTempDirs, sessionsDir, startOn, waitUntil } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * progress_card in a real gateway: the model writes the session's card, the transcript keeps the
 * receipt, clients read it with progressCard.get and hear progressCard.changed, invalid cards
 * change nothing, `{}` clears, the card survives a kill -9, a full reset (`/reset`, an idle
 * reset) clears it, a sub-agent
 * is never offered the tool, and `tools.updatePlan: false` takes it from every run.
 */
const TOKEN = "progress-card-token";
const SESSION = "agent:main:work";
const PLAN = [
  { step: "Inspect the failing route", status: "completed" },
  { step: "Repair the session owner", status: "in_progress" },
  { step: "Run focused verification", status: "pending" },
];
const NOTE = "The failure is isolated to session ownership.\u202E No blocker.";

/** What the model does for each user message of these tests. */
const CALLS: Record<string, Record<string, unknown>> = {
  "plan it": { plan: PLAN, markdown: NOTE },
  "two at once": { plan: [PLAN[0], { ...PLAN[1] }, { step: "Another", status: "in_progress" }] },
  "too many": { plan: Array.from({ length: 51 }, (_, i) => ({ step: `step ${i}`, status: "pending" })) },
  "clear it": {},
};

let model: FakeModelServer;
let stateDir: string;
let gw: GatewayProcess;
let sock: TestSocket;

async function startGateway(): Promise<void> {
  gw = await startOn(stateDir, TOKEN);
  sock = (await openOperator(gw.url, TOKEN)).sock;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  // An idle reset after an hour without a person's message (the last test backdates one).
  stateDir = makeAgentState(model, { http: true, extra: { session: { reset: { mode: "idle", idleMinutes: 60 } } } });
  await startGateway();
  model.setResponder((req) => {
    if (isSubagentRequest(req)) return { text: "child done" };
    const last = lastMessageOf(req);
    if (last.role === "tool") return { text: "ok" };
    if (last.role === "user" && last.text === "spawn a helper") return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "Help out." } }] };
    const args = CALLS[last.text];
    return args ? { toolCalls: [{ name: "progress_card", arguments: args }] } : { text: "ok" };
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
const get = async (sessionKey = SESSION, agentId?: string) => {
  const res = await sock.request("progressCard.get", { sessionKey, ...(agentId ? { agentId } : {}) });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.payload.card;
};
const changedEvents = () => sock.frames.filter((f) => f.event === "progressCard.changed").map((f) => f.payload);
const waitChanged = (revision: number | null) =>
  sock.waitFor((f: Frame) => f.event === "progressCard.changed" && f.payload.sessionKey === SESSION && f.payload.revision === revision, 10_000);

describe("progress_card in a gateway", { timeout: 90_000 }, () => {
  it("advertises its methods and event", async () => {
    const { sock: other, hello } = await openOperator(gw.url, TOKEN);
    other.close();
    expect(hello.features.methods).toEqual(expect.arrayContaining(["progressCard.get", "progressCard.put", "progressCard.refresh"]));
    expect(hello.features.events).toContain("progressCard.changed");
    const catalog = (await sock.request("tools.catalog", {})).payload;
    expect(catalog.groups.flatMap((g: any) => g.tools.map((t: any) => t.id))).toContain("progress_card");
    const effective = (await sock.request("tools.effective", { sessionKey: SESSION })).payload;
    expect(effective.groups[0].tools.map((t: any) => t.id)).toContain("progress_card");
  });

  it("stores the model's card for its session: the receipt goes back to the model, clients read it and hear of it", async () => {
    const requests = await ask("plan it");
    expect(toolNamesOf(requests[0]!)).toContain("progress_card");
    expect(lastToolResultOf(requests[1]!)).toEqual({ text: "Progress card updated (rev 1, 1/3 done)" });
    await waitChanged(1);
    const card = await get("work");
    // The bidi override is gone from the stored note; the card carries the canonical session key.
    expect(card).toEqual({ sessionKey: SESSION, revision: 1, updatedAt: expect.any(Number), steps: PLAN, markdown: "The failure is isolated to session ownership. No blocker." });
    expect(await get(SESSION, "main")).toEqual(card);
    // The transcript keeps the receipt only, not a second copy of the card.
    const history = (await sock.request("chat.history", { sessionKey: SESSION, limit: 100 })).payload.messages;
    const toolResult = history.find((m: any) => m.role === "toolResult");
    expect(JSON.stringify(toolResult)).toContain("Progress card updated (rev 1, 1/3 done)");
    expect(JSON.stringify(toolResult)).not.toContain("Repair the session owner");
  });

  it("an invalid card (two in_progress, 51 steps) is a tool error naming the rule and leaves the card as it was", async () => {
    const two = await ask("two at once");
    expect(lastToolResultOf(two[1]!)).toMatchObject({
      error: "PROGRESS_CARD_INVALID",
      message: "The progress card was not changed: plan has 2 in_progress steps; at most one step may be in_progress.",
    });
    const many = await ask("too many");
    expect(lastToolResultOf(many[1]!)).toMatchObject({ error: "PROGRESS_CARD_INVALID", message: "The progress card was not changed: plan has 51 steps; at most 50 are allowed." });
    expect((await get()).revision).toBe(1);
    expect(changedEvents().filter((e) => e.sessionKey === SESSION)).toHaveLength(1);
  });

  it("survives a kill -9 and a restart on the same state dir", async () => {
    const before = await get();
    sock.close();
    await gw.stop("SIGKILL");
    await startGateway();
    expect(await get()).toEqual(before);
    expect(readIndex(stateDir)[SESSION].progressCard.revision).toBe(1);
  });

  it("progressCard.put replaces the card under the same rules; {} from the model clears it", async () => {
    const put = await sock.request("progressCard.put", { sessionKey: SESSION, markdown: '<progress aria-label="Checks · 3/7" value="3" max="7"></progress>\n\nRunning.' });
    expect(put.ok, JSON.stringify(put.error)).toBe(true);
    expect(put.payload.card).toMatchObject({ sessionKey: SESSION, revision: 2 });
    expect(put.payload.card.steps).toBeUndefined();
    await waitChanged(2);
    const bad = await sock.request("progressCard.put", { sessionKey: SESSION, plan: [PLAN[1], PLAN[1]] });
    expect(bad.error).toMatchObject({ code: "INVALID_REQUEST", message: "progress card not changed: plan has 2 in_progress steps; at most one step may be in_progress" });
    const otherAgent = await sock.request("progressCard.get", { sessionKey: SESSION, agentId: "nobody" });
    expect(otherAgent.ok).toBe(false);

    const cleared = await ask("clear it");
    expect(lastToolResultOf(cleared[1]!)).toEqual({ text: "Progress card cleared" });
    await waitChanged(null);
    expect(await get()).toBeNull();
    // Revisions count on after a clear: a new card is never an old revision again.
    expect((await ask("plan it")).length).toBe(2);
    expect((await get()).revision).toBe(4);
  });

  it("a full /reset clears the card and tells clients", async () => {
    const seen = changedEvents().length;
    const res = await sock.request("chat.send", { sessionKey: SESSION, message: "/reset", idempotencyKey: randomUUID() });
    expect(res.ok).toBe(true);
    await waitUntil(() => changedEvents().length > seen, 10_000, "progressCard.changed after /reset");
    expect(changedEvents().at(-1)).toEqual({ sessionKey: SESSION, revision: null });
    expect(await get()).toBeNull();
  });

  it("a deleted session's card goes with it; a session that does not exist has none and takes none", async () => {
    const scratch = "agent:main:scratch";
    await ask("hello", scratch);
    expect((await sock.request("progressCard.put", { sessionKey: scratch, markdown: "temporary" })).payload.card.revision).toBe(1);
    expect((await sock.request("sessions.delete", { key: scratch })).ok).toBe(true);
    expect(await get(scratch)).toBeNull();
    expect(readIndex(stateDir)[scratch]).toBeUndefined();
    const missing = await sock.request("progressCard.put", { sessionKey: "agent:main:nowhere", markdown: "x" });
    expect(missing.error).toMatchObject({ code: "INVALID_REQUEST", message: "session not found: agent:main:nowhere" });
  });

  it("an idle reset clears the card and tells clients, as /reset does", async () => {
    expect((await sock.request("progressCard.put", { sessionKey: SESSION, markdown: "before the break" })).ok).toBe(true);
    sock.close();
    await gw.stop("SIGKILL");
    const index = readIndex(stateDir);
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    Object.assign(index[SESSION], { lastInteractionAt: twoHoursAgo, updatedAt: twoHoursAgo });
    fs.writeFileSync(path.join(sessionsDir(stateDir), "sessions.json"), JSON.stringify(index));
    await startGateway();
    expect((await get())?.markdown).toBe("before the break");
    await ask("back again");
    await waitChanged(null);
    expect(await get()).toBeNull();
  });

  it("is offered to a kept /v1 session, not to a one-off (stateless) request, whose card nothing would keep", async () => {
    const toolsFor = async (user: string | undefined) => {
      const before = chatRequests(model.requests).length;
      const response = await fetch(`${gw.httpUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "openclaw", messages: [{ role: "user", content: "hello over http" }], ...(user ? { user } : {}) }),
      });
      expect(response.status).toBe(200);
      return toolNamesOf(chatRequests(model.requests).slice(before).at(-1)!);
    };
    expect(await toolsFor("kept-user")).toContain("progress_card");
    expect(await toolsFor(undefined)).not.toContain("progress_card");
  });

  it("is never offered to a sub-agent, only to the session that spawned it", async () => {
    const before = model.requests.length;
    await ask("spawn a helper", "agent:main:main");
    await waitUntil(() => model.requests.slice(before).some(isSubagentRequest), 15_000, "the sub-agent's model call");
    const requests = chatRequests(model.requests.slice(before));
    const child = requests.find(isSubagentRequest)!;
    expect(toolNamesOf(child)).not.toContain("progress_card");
    expect(toolNamesOf(child)).toContain("read");
    expect(toolNamesOf(requests.find((r) => !isSubagentRequest(r))!)).toContain("progress_card");
  });
});

describe("tools.updatePlan: false", { timeout: 60_000 }, () => {
  it("offers progress_card to no run, while the methods still answer", async () => {
    const offModel = await startFakeModelServer();
    const offState = makeAgentState(offModel, { extra: { tools: { updatePlan: false } } });
    const offGw = await startOn(offState, TOKEN);
    const offSock = (await openOperator(offGw.url, TOKEN)).sock;
    try {
      offModel.setResponder(() => ({ text: "ok" }));
      const final = await askAndWait(offSock, "main", "hello", 15_000);
      expect(final.payload.state).toBe("final");
      const names = toolNamesOf(chatRequests(offModel.requests).at(-1)!);
      expect(names).toContain("read");
      expect(names).not.toContain("progress_card");
      expect((await offSock.request("progressCard.get", { sessionKey: "main" })).payload).toEqual({ card: null });
      const catalog = (await offSock.request("tools.catalog", {})).payload;
      expect(catalog.groups.flatMap((g: any) => g.tools.map((t: any) => t.id))).not.toContain("progress_card");
      const effective = (await offSock.request("tools.effective", { sessionKey: "main" })).payload;
      expect(effective.groups[0].tools.map((t: any) => t.id)).not.toContain("progress_card");
    } finally {
      offSock.close();
      await offGw.stop("SIGKILL");
      await offModel.close();
    }
  });
});
