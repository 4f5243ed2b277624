import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";
import { resolveFocusTarget } from "../../../src/agents/subagents/focus-target.js";
import type { ConversationRun as PortRun } from "../../../src/agents/conversation-port.js";
import type { SpawnRefusal } from "../../../src/agents/subagents/spawn-checks.js";
import { SubagentService } from "../../../src/agents/subagents/subagent-service.js";
import { threadTitle, type SubagentThread, type SubagentThreadPort } from "../../../src/agents/subagents/thread-port.js";
import type { SessionToolCaller } from "../../../src/agents/tools/index.js";
import { SessionStore } from "../../../src/sessions/store/index.js";
import { FakeConversations, settle } from "./fake-conversations.js";
import { tempStateDir } from "./helpers.js";

const logger = pino({ level: "silent" });
const services: SubagentService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});

const PARENT = "agent:main:slack:channel:c1";
const caller: SessionToolCaller = { sessionKey: PARENT, agentId: "main", senderIsOwner: true, workspaceDir: "/nonexistent" };
const THREAD: SubagentThread = { channel: "slack", accountId: "default", chatId: "C1", threadId: "1700000000.000100" };

/** A thread port that records what the service asks of it; `refuse` / `failOpen` script refusals. */
class RecordingThreads implements SubagentThreadPort {
  refuse?: SpawnRefusal;
  failOpen?: SpawnRefusal;
  readonly opened: string[] = [];
  readonly bound: { thread: SubagentThread; child: string; label: string }[] = [];
  readonly delivered: { child: string; runId: string }[] = [];
  readonly deliveredTexts: { thread: SubagentThread; text: string; key: string }[] = [];
  readonly released: string[] = [];
  check() {
    return this.refuse;
  }
  async open(_requester: string, title: string) {
    this.opened.push(title);
    return this.failOpen ?? THREAD;
  }
  bind(thread: SubagentThread, child: string, label: string) {
    this.bound.push({ thread, child, label });
  }
  deliverRun(child: string, run: PortRun) {
    this.delivered.push({ child, runId: run.runId });
  }
  deliverText(thread: SubagentThread, text: string, key: string) {
    this.deliveredTexts.push({ thread, text, key });
  }
  release(child: string) {
    this.released.push(child);
  }
}

function setup(session: Record<string, unknown> = {}) {
  const stateDir = tempStateDir();
  const store = new SessionStore(stateDir);
  const config = applyDefaults({ agents: { defaults: { workspace: path.join(stateDir, "workspace") } }, session } as never) as OpenClawConfig;
  const conversations = new FakeConversations(store);
  const threads = new RecordingThreads();
  const service = new SubagentService({ stateDir, config: () => config, store, conversations, logger, threads });
  service.start();
  services.push(service);
  store.ensure(PARENT);
  return { stateDir, store, conversations, threads, service };
}

describe("thread-bound sub-agents (sessions_spawn thread: true)", () => {
  it("a thread spawn starts with a fork of the conversation unless it or session.threadBindings.defaultSpawnContext says isolated; other spawns only when they ask", async () => {
    const forked = setup();
    const thread = await forked.service.spawn(caller, { task: "Dig", thread: true });
    const plain = await forked.service.spawn(caller, { task: "Dig" });
    const asked = await forked.service.spawn(caller, { task: "Dig", context: "fork" });
    const isolated = await forked.service.spawn(caller, { task: "Dig", thread: true, context: "isolated" });
    const child = (o: typeof thread) => ("childSessionKey" in o ? o.childSessionKey : o.message);
    expect(forked.conversations.forks).toEqual([`${PARENT} → ${child(thread)}`, `${PARENT} → ${child(asked)}`]);
    expect(child(plain)).not.toBe(child(isolated));

    const off = setup({ threadBindings: { defaultSpawnContext: "isolated" } });
    await off.service.spawn(caller, { task: "Dig", thread: true });
    expect(off.conversations.forks).toEqual([]);
  });

  it("opens a thread titled by the label, binds it, routes the child there and delivers its task run into it; session mode by default", async () => {
    const { store, conversations, threads, service } = setup();
    const outcome = await service.spawn(caller, { task: "Dig into the logs", label: "log digger", thread: true });
    if (!("status" in outcome)) throw new Error(outcome.message);
    expect(outcome.mode).toBe("session");
    expect(threads.opened).toEqual(["log digger"]);
    expect(threads.bound).toEqual([{ thread: THREAD, child: outcome.childSessionKey, label: "log digger" }]);
    expect(threads.delivered).toEqual([{ child: outcome.childSessionKey, runId: outcome.runId }]);
    expect(store.get(outcome.childSessionKey)).toMatchObject({ lastChannel: "slack", lastTo: "C1", lastAccountId: "default", lastThreadId: THREAD.threadId });
    expect(service.registry.get(outcome.runId)!.thread).toEqual(THREAD);

    // The round ends and is announced as usual; the idle session-mode child keeps its thread.
    conversations.run(outcome.runId).finish("ok", "found it");
    await settle();
    expect(conversations.to(PARENT)).toHaveLength(1);
    expect(threads.released).toEqual([]);

    // A steer's run answers in the thread too; a kill gives the thread back.
    const record = service.registry.get(outcome.runId)!;
    expect(await service.steer(record, "look at yesterday too", PARENT)).toMatchObject({ ok: true });
    expect(threads.delivered).toHaveLength(2);
    service.kill(record);
    await settle();
    expect(threads.released).toEqual([outcome.childSessionKey]);
  });

  it("an explicit run mode still binds, and the thread is released when the run's round ends", async () => {
    const { conversations, threads, service } = setup();
    const outcome = await service.spawn(caller, { task: "one shot", thread: true, mode: "run" });
    if (!("status" in outcome)) throw new Error(outcome.message);
    expect(outcome.mode).toBe("run");
    conversations.run(outcome.runId).finish("ok", "done");
    await settle();
    expect(threads.released).toEqual([outcome.childSessionKey]);
  });

  it("is refused before anything is created when the chat cannot have a thread, and when opening it fails the attachments are taken back", async () => {
    const { stateDir, conversations, threads, service } = setup();
    threads.refuse = { code: "THREAD_UNAVAILABLE", message: "slack account is not running", suggestion: "Spawn without thread." };
    expect(await service.spawn(caller, { task: "x", thread: true })).toEqual(threads.refuse);
    expect(threads.opened).toEqual([]);

    delete threads.refuse;
    threads.failOpen = { code: "THREAD_UNAVAILABLE", message: "No thread can be opened in this chat: not a forum", suggestion: "Spawn without thread." };
    const refused = await service.spawn(caller, { task: "x", thread: true, attachments: [{ name: "notes.txt", content: "hello" }], attachMountPath: "inbox" });
    expect(refused).toEqual(threads.failOpen);
    expect(fs.readdirSync(path.join(stateDir, "workspace", "inbox"))).toEqual([]);
    expect(service.registry.all()).toEqual([]);
    expect(conversations.submitted).toEqual([]);
  });

  it("without a thread port (no channels) thread: true is refused with a reason the model can act on", async () => {
    const stateDir = tempStateDir();
    const store = new SessionStore(stateDir);
    const service = new SubagentService({ stateDir, config: () => applyDefaults({}) as OpenClawConfig, store, conversations: new FakeConversations(store), logger });
    services.push(service);
    service.start();
    expect(await service.spawn(caller, { task: "x", thread: true })).toMatchObject({ code: "THREAD_UNAVAILABLE", suggestion: expect.stringMatching(/without thread/) });
  });

  it("titles: the label, else the task's first non-empty line, at most 100 characters", () => {
    expect(threadTitle("task", " my label ")).toBe("my label");
    expect(threadTitle("\n\n  First line  \nsecond", undefined)).toBe("First line");
    const long = threadTitle("y".repeat(300), undefined);
    expect(long).toHaveLength(100);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("resolveFocusTarget (/focus)", () => {
  it("finds a live sub-agent of the chat's sessions by label or #n, refuses ended ones and other chats' sub-agents", async () => {
    const { conversations, service } = setup();
    const mine = await service.spawn(caller, { task: "a", label: "alpha", mode: "session" });
    const ended = await service.spawn(caller, { task: "b", label: "beta" });
    const elsewhere = await service.spawn({ ...caller, sessionKey: "agent:main:slack:channel:c2" }, { task: "c", label: "gamma" });
    if (!("status" in mine) || !("status" in ended) || !("status" in elsewhere)) throw new Error("spawn refused");
    conversations.run(ended.runId).finish("ok", "done");
    await settle();

    const owners = [`${PARENT}:thread:1700000000.000100`, PARENT];
    expect(resolveFocusTarget(service, owners, "alpha")).toEqual({ ok: true, sessionKey: mine.childSessionKey, label: "alpha" });
    expect(resolveFocusTarget(service, owners, "#1")).toMatchObject({ ok: true, sessionKey: mine.childSessionKey });
    expect(resolveFocusTarget(service, owners, "beta")).toEqual({ ok: false, message: expect.stringMatching(/"beta" already ended \(ok\)/) });
    expect(resolveFocusTarget(service, owners, "gamma")).toEqual({ ok: false, message: expect.stringMatching(/No sub-agent of this chat matches "gamma"/) });
  });
});
