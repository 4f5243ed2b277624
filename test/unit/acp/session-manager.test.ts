import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AcpSessionManager, type AcpManagedRuntime } from "../../../src/acp/control-plane/manager.js";
import { StdioAcpRuntime } from "../../../src/acp/stdio/stdio-runtime.js";
import type { AcpSettings } from "../../../src/acp/config.js";
import { isProcessAlive } from "../../../src/infra/process-alive.js";
import { fakeAcpSettings, recordingLogger } from "../../helpers/acp-agent.js";

let dir: string;
const managers: AcpSessionManager[] = [];
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-mgr-")));
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function makeManager(settings: AcpSettings, opts: { now?: () => number } = {}) {
  const log = recordingLogger();
  let live = 0;
  const peak = { value: 0 };
  const manager = new AcpSessionManager({
    stateDir: path.join(dir, "state"),
    settings: () => settings,
    logger: log.logger,
    ...(opts.now ? { now: opts.now } : {}),
    createRuntime: (hooks) => {
      const runtime = new StdioAcpRuntime({
        settings: () => settings,
        logger: log.logger,
        onProcess: (key, pid) => {
          if (pid !== undefined) peak.value = Math.max(peak.value, ++live);
          else live -= 1;
          hooks.onProcess(key, pid);
        },
      });
      return runtime as AcpManagedRuntime;
    },
  });
  manager.start();
  managers.push(manager);
  return { manager, log, peak };
}

const recordsOnDisk = () => JSON.parse(fs.readFileSync(path.join(dir, "state", "acp", "sessions.json"), "utf8")).sessions;

describe("AcpSessionManager", () => {
  it("records a session on disk before its process starts, keys it agent:<agent>:acp:<uuid>, and closes a oneshot after its turn", async () => {
    const { manager } = makeManager(fakeAcpSettings({ fake: [] }));
    const record = manager.createSession({ agent: "fake", mode: "oneshot", cwd: dir, label: "demo" });
    expect(record.sessionKey).toMatch(/^agent:fake:acp:[0-9a-f-]{36}$/);
    expect(recordsOnDisk()).toEqual([expect.objectContaining({ sessionKey: record.sessionKey, state: "starting", agent: "fake", cwd: dir, mode: "oneshot" })]);
    expect(recordsOnDisk()[0].pid).toBeUndefined();
    const result = await manager.runTurn({ sessionKey: record.sessionKey, text: "hello #echo", mode: "prompt" });
    expect(result).toMatchObject({ ok: true, text: "echo: hello", stopReason: "end_turn" });
    expect(manager.resolve(record.sessionKey)).toEqual({ kind: "none", sessionKey: record.sessionKey });
    expect(recordsOnDisk()[0]).toMatchObject({ state: "closed", turns: 1 });
    expect(manager.activeProcesses).toBe(0);
  });

  it("keeps at most maxConcurrentSessions processes alive; the other sessions wait their turn and all complete", async () => {
    const settings = fakeAcpSettings({ fake: [] }, {}, { maxConcurrentSessions: 2 });
    const { manager, peak } = makeManager(settings);
    const sessions = Array.from({ length: 5 }, () => manager.createSession({ agent: "fake", mode: "oneshot", cwd: dir }));
    let maxQueued = 0;
    const onEvent = () => (maxQueued = Math.max(maxQueued, manager.queuedStarts));
    const results = await Promise.all(sessions.map((s, i) => manager.runTurn({ sessionKey: s.sessionKey, text: `task ${i} #thought #slow:200 #echo`, mode: "prompt", onEvent })));
    expect(results.map((r) => r.text)).toEqual(sessions.map((_, i) => `echo: task ${i}`));
    expect(peak.value).toBeLessThanOrEqual(2);
    // When the first agent spoke, the others were still waiting for a slot.
    expect(maxQueued).toBeGreaterThanOrEqual(1);
  });

  it("after a crash, ends the orphaned process and resumes a persistent session with session/load", async () => {
    const store = path.join(dir, "agent-store");
    const settings = fakeAcpSettings({ fake: ["--store", store, "--ignore-stdin-end"] });
    const first = makeManager(settings).manager;
    const record = first.createSession({ agent: "fake", mode: "persistent", cwd: dir });
    expect((await first.runTurn({ sessionKey: record.sessionKey, text: "one #echo", mode: "prompt" })).ok).toBe(true);
    const { pid, backendSessionId } = recordsOnDisk()[0];
    expect(isProcessAlive(pid)).toBe(true);
    // A second manager on the same state dir plays the restarted gateway (the first never stopped).
    const second = makeManager(settings).manager;
    for (let i = 0; i < 100 && isProcessAlive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(isProcessAlive(pid)).toBe(false);
    expect(second.resolve(record.sessionKey)).toMatchObject({ kind: "ready", meta: { state: "idle" } });
    const again = await second.runTurn({ sessionKey: record.sessionKey, text: "two #echo", mode: "prompt" });
    expect(again).toMatchObject({ ok: true, text: "echo: two" });
    expect(second.records.get(record.sessionKey)).toMatchObject({ backendSessionId, state: "ready" });
  });

  it("after a restart, a session whose agent cannot load sessions is stale and says why", async () => {
    const settings = fakeAcpSettings({ fake: ["--no-load"] });
    const first = makeManager(settings).manager;
    const record = first.createSession({ agent: "fake", mode: "persistent", cwd: dir });
    await first.runTurn({ sessionKey: record.sessionKey, text: "one", mode: "prompt" });
    await first.stop();
    const second = makeManager(settings).manager;
    const resolution = second.resolve(record.sessionKey);
    expect(resolution.kind).toBe("stale");
    expect(resolution.kind === "stale" && resolution.error.message).toContain("the gateway restarted and ACP agent `fake` cannot resume sessions (no session/load)");
    expect(await second.runTurn({ sessionKey: record.sessionKey, text: "two", mode: "prompt" })).toMatchObject({ ok: false, error: { code: "ACP_SESSION_STALE" } });
  });

  it("closes an idle persistent session's process after idleTimeoutSeconds; it resumes on the next turn", async () => {
    let clock = Date.now();
    const store = path.join(dir, "agent-store");
    const settings = fakeAcpSettings({ fake: ["--store", store] }, {}, { idleTimeoutSeconds: 60 });
    const { manager } = makeManager(settings, { now: () => clock });
    const record = manager.createSession({ agent: "fake", mode: "persistent", cwd: dir });
    await manager.runTurn({ sessionKey: record.sessionKey, text: "one", mode: "prompt" });
    const pid = manager.records.get(record.sessionKey)!.pid!;
    await manager.sweepIdle();
    expect(manager.records.get(record.sessionKey)!.state).toBe("ready");
    clock += 61_000;
    await manager.sweepIdle();
    expect(manager.records.get(record.sessionKey)).toMatchObject({ state: "idle" });
    expect(isProcessAlive(pid)).toBe(false);
    expect(manager.activeProcesses).toBe(0);
    expect(await manager.runTurn({ sessionKey: record.sessionKey, text: "two #echo", mode: "prompt" })).toMatchObject({ ok: true, text: "echo: two" });
  });

  it("an agent that dies mid-turn leaves the session stale with the reason", async () => {
    const { manager } = makeManager(fakeAcpSettings({ fake: [] }));
    const record = manager.createSession({ agent: "fake", mode: "persistent", cwd: dir });
    const events: string[] = [];
    const result = await manager.runTurn({ sessionKey: record.sessionKey, text: "#crash", mode: "prompt", onEvent: (e) => events.push(e.type) });
    expect(result).toMatchObject({ ok: false, error: { code: "ACP_AGENT_EXITED" } });
    expect(events.filter((t) => t === "error")).toHaveLength(1);
    expect(manager.resolve(record.sessionKey).kind).toBe("stale");
    expect(manager.activeProcesses).toBe(0);
  });
});
