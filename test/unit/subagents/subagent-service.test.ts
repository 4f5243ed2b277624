import { afterEach, describe, expect, it } from "vitest";
import pino from "pino";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { SubagentService } from "../../../src/agents/subagents/subagent-service.js";
import type { SessionToolCaller, SessionsSpawnArgs } from "../../../src/agents/tools/index.js";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { FakeConversations, settle } from "./fake-conversations.js";
import { tempStateDir } from "./helpers.js";

const logger = pino({ level: "silent" });
const services: SubagentService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});

function setup(raw: Record<string, unknown> = {}, stateDir = tempStateDir(), store = new SessionStore(stateDir)) {
  const config = applyDefaults({ agents: { defaults: { subagents: { maxSpawnDepth: 2 } } }, ...raw } as never) as OpenClawConfig;
  const conversations = new FakeConversations(store);
  const service = new SubagentService({ stateDir, config: () => config, store, conversations, logger });
  service.start();
  services.push(service);
  store.ensure("agent:main:main");
  return { stateDir, store, conversations, service };
}

/** The service as a gateway restart brings it back: on the same state dir, store and conversations, default config, started. */
function startAgain(first: ReturnType<typeof setup>): SubagentService {
  const service = new SubagentService({
    stateDir: first.stateDir,
    config: () => applyDefaults({}) as OpenClawConfig,
    store: first.store,
    conversations: first.conversations,
    logger,
  });
  services.push(service);
  service.start();
  return service;
}

const main: SessionToolCaller = { sessionKey: "agent:main:main", agentId: "main", senderIsOwner: true, workspaceDir: "/nonexistent" };
const callerFor = (sessionKey: string): SessionToolCaller => ({ ...main, sessionKey });

async function spawn(service: SubagentService, args: Partial<SessionsSpawnArgs> = {}, caller = main) {
  const outcome = await service.spawn(caller, { task: "do the thing", ...args });
  if (!("status" in outcome)) throw new Error(`refused: ${outcome.message}`);
  return outcome;
}

describe("SubagentService", () => {
  it("spawn → the child's run ends → exactly one announcement into the requester, fenced, with its stats", async () => {
    const { conversations, service, store } = setup();
    const child = await spawn(service, { label: "hunt" });
    const task = conversations.run(child.runId);
    expect(conversations.to(child.childSessionKey)[0]).toMatchObject({
      message: "[Subagent Task]\ndo the thing",
      provenance: { kind: "inter_session", sourceTool: "sessions_spawn" },
    });
    expect(store.get(child.childSessionKey)).toMatchObject({ spawnedBy: "agent:main:main", spawnDepth: 1, label: "hunt" });
    task.finish("ok", "found it");
    await settle();
    const announced = conversations.to("agent:main:main");
    expect(announced).toHaveLength(1);
    expect(announced[0]!.idempotencyKey).toBe(`announce:${child.runId}:1`);
    expect(announced[0]!.internal).toEqual({ mergeable: true });
    expect(announced[0]!.message).toContain("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\nfound it\n<<<END_UNTRUSTED_CHILD_RESULT>>>\n\nStats: runs 1 (1 succeeded, 0 failed)");
    const record = service.registry.get(child.runId)!;
    expect(record).toMatchObject({ outcome: "ok", endedReason: "subagent-complete", frozenResultText: "found it", announce: { state: "accepted" } });
    conversations.run(`announce:${child.runId}:1`).finish("ok", "told the user");
    await settle();
    expect(record.announce!.state).toBe("answered");
  });

  it("a restart while the child runs ends in one announcement saying it was interrupted; another restart repeats nothing", async () => {
    const first = setup();
    const child = await spawn(first.service);
    await first.service.stop();
    first.conversations.restart();

    const second = startAgain(first);
    await settle();
    const announced = first.conversations.to("agent:main:main");
    expect(announced).toHaveLength(1);
    expect(announced[0]!.message).toContain("status: failed: the run was interrupted by a gateway restart before it finished");
    first.conversations.run(`announce:${child.runId}:1`).finish("ok", "sorry, it broke");
    await settle();
    await second.stop();

    const third = startAgain(first);
    await settle();
    expect(first.conversations.to("agent:main:main")).toHaveLength(1);
    expect(third.registry.get(child.runId)!.announce!.state).toBe("answered");
  });

  it("after a restart, a child whose transcript ends in a finished answer is announced ok with that answer", async () => {
    const first = setup();
    const child = await spawn(first.service);
    // The answer was written, but the process died before the run was reported over.
    (first.conversations.history(child.childSessionKey) as unknown as object[]).push({
      role: "assistant",
      content: [{ type: "text", text: "done before the crash" }],
      timestamp: Date.now(),
      stopReason: "stop",
    });
    await first.service.stop();
    first.conversations.restart();
    startAgain(first);
    await settle();
    const [announcement] = first.conversations.to("agent:main:main");
    expect(announcement!.message).toContain("status: completed successfully");
    expect(announcement!.message).toContain("\ndone before the crash\n");
  });

  it("an announcement the requester accepted but never answered before a restart is not sent again; the requester is asked to answer once", async () => {
    const first = setup();
    const child = await spawn(first.service);
    first.conversations.run(child.runId).finish("ok", "result");
    await settle();
    expect(first.conversations.to("agent:main:main")).toHaveLength(1);
    await first.service.stop();
    first.conversations.restart();
    const second = startAgain(first);
    await settle();
    const sent = first.conversations.to("agent:main:main").map((s) => s.idempotencyKey);
    expect(sent).toEqual([`announce:${child.runId}:1`, `announce:${child.runId}:1:resume`]);
    first.conversations.run(`announce:${child.runId}:1:resume`).finish("ok", "answered now");
    await settle();
    expect(second.registry.get(child.runId)!.announce).toMatchObject({ state: "answered", resumed: true });
  });

  it("a nested child's round waits for its own child's announcement, and reports the summary it wrote after it", async () => {
    const { conversations, service } = setup();
    const orchestrator = await spawn(service, { label: "orch" });
    const leaf = await spawn(service, { label: "leaf" }, callerFor(orchestrator.childSessionKey));
    expect(leaf.childSessionKey).toBe(`${orchestrator.childSessionKey}:subagent:${leaf.childSessionKey.split(":").at(-1)}`);
    conversations.run(orchestrator.runId).finish("ok", "waiting for the leaf");
    await settle();
    expect(conversations.to("agent:main:main")).toHaveLength(0);
    conversations.run(leaf.runId).finish("ok", "leaf says 7");
    await settle();
    const intoOrchestrator = conversations.to(orchestrator.childSessionKey).at(-1)!;
    expect(intoOrchestrator.message).toContain("\nleaf says 7\n");
    expect(intoOrchestrator.message).toMatch(/internal update for your parent/);
    expect(conversations.to("agent:main:main")).toHaveLength(0);
    conversations.run(intoOrchestrator.idempotencyKey).finish("ok", "summary: 7");
    await settle();
    const [top] = conversations.to("agent:main:main");
    expect(top!.message).toContain("\nsummary: 7\n");
    expect(top!.message).toContain("Stats: runs 2 (2 succeeded, 0 failed)");
  });

  it("kill cascades: the whole tree stops, only the killed child announces, with outcome killed", async () => {
    const { conversations, service } = setup();
    const orchestrator = await spawn(service, { label: "orch" });
    const leaf = await spawn(service, { label: "leaf" }, callerFor(orchestrator.childSessionKey));
    const killed = service.kill(service.registry.get(orchestrator.runId)!);
    expect(killed.map((r) => r.runId)).toEqual([orchestrator.runId, leaf.runId]);
    await settle();
    expect(conversations.run(leaf.runId).status).toBe("aborted");
    expect(conversations.to(orchestrator.childSessionKey).filter((s) => s.idempotencyKey.startsWith("announce:"))).toHaveLength(0);
    const announced = conversations.to("agent:main:main");
    expect(announced).toHaveLength(1);
    expect(announced[0]!.message).toContain("status: killed before it finished");
    expect(service.registry.get(orchestrator.runId)).toMatchObject({ outcome: "killed", endedReason: "subagent-killed" });
    expect(service.registry.get(leaf.runId)).toMatchObject({ outcome: "killed", announce: { state: "suppressed" } });
  });

  it("/stop in the requester cascades: every unfinished child tree is killed, and nothing is announced back", async () => {
    const { conversations, service } = setup();
    const first = await spawn(service, { label: "one" });
    const second = await spawn(service, { label: "two" });
    const grandchild = await spawn(service, { label: "deep" }, callerFor(first.childSessionKey));
    conversations.run(second.runId).finish("ok", "done already");
    await settle();
    const announcedBefore = conversations.to("agent:main:main").length;
    const killed = service.stopChildrenOf("agent:main:main");
    expect(killed.map((r) => r.runId).sort()).toEqual([first.runId, grandchild.runId].sort());
    await settle();
    expect(conversations.run(first.runId).status).toBe("aborted");
    expect(conversations.run(grandchild.runId).status).toBe("aborted");
    expect(conversations.to("agent:main:main")).toHaveLength(announcedBefore);
    expect(service.registry.get(first.runId)).toMatchObject({ outcome: "killed", announce: { state: "suppressed" } });
    expect(service.stopChildrenOf("agent:main:main")).toEqual([]);
  });

  it("steer: refuses empty, too long and too frequent messages; restarts a running child; an idle session-mode child starts a new round", async () => {
    const { conversations, service } = setup();
    const child = await spawn(service, { mode: "session" });
    const record = service.registry.get(child.runId)!;
    expect(await service.steer(record, "   ", "agent:main:main")).toMatchObject({ ok: false, refusal: { code: "INVALID_ARGUMENT" } });
    expect(await service.steer(record, "x".repeat(4_001), "agent:main:main")).toMatchObject({
      ok: false,
      refusal: { message: expect.stringMatching(/4001 characters; at most 4000/) },
    });
    expect(await service.steer(record, "go left", "agent:main:main")).toEqual({ ok: true, restarted: true, settled: true });
    expect(conversations.run(child.runId).status).toBe("aborted");
    expect(await service.steer(record, "go right", "agent:main:main")).toMatchObject({ ok: false, refusal: { code: "STEER_RATE_LIMITED" } });
    const steerKey = `${child.runId}:steer:1`;
    expect(conversations.run(steerKey)).toBeDefined();
    expect(conversations.to(child.childSessionKey).at(-1)!.message).toMatch(/^\[Subagent Steer\].*\ngo left$/s);
    conversations.run(steerKey).finish("ok", "went left");
    await settle();
    expect(conversations.to("agent:main:main").map((s) => s.idempotencyKey)).toEqual([`announce:${child.runId}:1`]);
    // Session mode: the child stays; a later steer opens round 2, announced under its own key.
    expect(record.endedAt).toBeUndefined();
    record.lastSteerAt = 0;
    expect(await service.steer(record, "and now up", "agent:main:main")).toEqual({ ok: true, restarted: false, settled: true });
    conversations.run(`${child.runId}:steer:2`).finish("ok", "went up");
    await settle();
    expect(conversations.to("agent:main:main").map((s) => s.idempotencyKey)).toEqual([`announce:${child.runId}:1`, `announce:${child.runId}:2`]);
    expect(conversations.to("agent:main:main")[1]!.message).toContain("\nwent up\n");
  });

  it("expectsCompletionMessage: false suppresses an empty result; cleanup delete archives the child's session once answered", async () => {
    const { conversations, service, store } = setup();
    const quiet = await spawn(service, { expectsCompletionMessage: false });
    conversations.run(quiet.runId).finish("ok", "");
    await settle();
    expect(service.registry.get(quiet.runId)!.announce).toMatchObject({ state: "suppressed" });
    expect(conversations.to("agent:main:main")).toHaveLength(0);

    const tidy = await spawn(service, { cleanup: "delete" });
    conversations.run(tidy.runId).finish("ok", "bye");
    await settle();
    expect(store.get(tidy.childSessionKey)).toBeDefined();
    conversations.run(`announce:${tidy.runId}:1`).finish("ok", "noted");
    await settle();
    expect(store.get(tidy.childSessionKey)).toBeUndefined();
  });

  it("an announcement whose nested requester's session is gone goes to that requester's own requester", async () => {
    const { conversations, service, store } = setup();
    const orchestrator = await spawn(service);
    const leaf = await spawn(service, {}, callerFor(orchestrator.childSessionKey));
    store.delete(orchestrator.childSessionKey);
    conversations.run(leaf.runId).finish("ok", "orphaned result");
    await settle();
    expect(conversations.to("agent:main:main").map((s) => s.idempotencyKey)).toEqual([`announce:${leaf.runId}:1`]);
    expect(service.registry.get(leaf.runId)!.announce!.targetSessionKey).toBe("agent:main:main");
  });

  it("turnOverrides give a child the minimal prompt, its context block, frozen sender and model, and its depth", async () => {
    const { service } = setup({ models: { providers: { fake: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", api: "openai-completions", models: [{ id: "m" }] } } } });
    const child = await spawn(service, { model: "fake/m", runTimeoutSeconds: 30 }, { ...main, senderIsOwner: false });
    const overrides = service.turnOverrides(child.childSessionKey)!;
    expect(overrides).toMatchObject({ spawnDepth: 1, promptMode: "minimal", modelOverride: "fake/m", timeoutSeconds: 30, senderIsOwner: false });
    expect(overrides.extraSystemPrompt).toMatch(/You may split the work with sessions_spawn/);
    expect(service.turnOverrides("agent:main:main")).toBeUndefined();
    expect(service.turnOverrides("agent:main:subagent:nobody")).toEqual({ spawnDepth: 1 });
  });

  it("an unknown model falls back to the agent's with a warning; bad arguments are refused before anything starts", async () => {
    const { conversations, service } = setup();
    const outcome = await spawn(service, { model: "nope/none" });
    expect(outcome.warnings?.[0]).toMatch(/model "nope\/none" cannot be used/);
    expect(outcome.resolvedModel).toBeUndefined();
    const before = conversations.submitted.length;
    expect(await service.spawn(main, { task: "  " })).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(await service.spawn(main, { task: "x", thinking: "enormous" })).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(await service.spawn(main, { task: "x", runtime: "acp" })).toMatchObject({ code: "RUNTIME_UNAVAILABLE" });
    expect(await service.spawn(main, { task: "x", thread: true })).toMatchObject({ code: "THREAD_UNAVAILABLE" });
    expect(await service.spawn(main, { task: "x", sandbox: "require" })).toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
    expect(conversations.submitted.length).toBe(before);
  });
});
