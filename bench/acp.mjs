// ACP agents driven by the gateway's control plane (dist/src/acp), in this process, against the
// scripted fake ACP agent (a real child process on the ACP SDK):
//  - spawn → first session/prompt: from AcpChildren.prepare() (what sessions_spawn calls) to the
//    agent receiving session/prompt, counting only the gateway's share: the time until the agent's
//    process exists (spawn() has returned: the fork and exec are done), and the turnarounds from
//    the agent's answers (initialize, session/new) reaching its stdout to the gateway's next
//    request arriving on its stdin. The agent's own start-up and parsing are not;
//  - relay cost per session/update: this process's CPU time for a turn of N message chunks
//    (parse, map, stream events, progress relay), divided by N;
//  - 20 concurrent ACP sessions: RSS of this process before and while 20 agents are live.
import childProcess from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { MiB, percentile, round } from "./lib/util.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FAKE_AGENT = path.join(REPO, "test/fakes/acp-agent/fake-acp-agent.mjs");
const dist = (p) => import(path.join(REPO, "dist/src", p));

/**
 * Every agent process this process spawns, seen from the gateway's side of its pipes (in the
 * bench's clock): when spawn() returned (libuv returns once the child has exec'd: the agent's
 * process exists, its own start-up follows), and when each chunk arrived from its stdout or was
 * written to its stdin.
 */
const spawned = [];
const clock = () => performance.timeOrigin + performance.now();
function recordSpawns() {
  if (childProcess.spawn.benchRecording) return;
  const spawn = childProcess.spawn;
  childProcess.spawn = Object.assign(
    (...args) => {
      const child = spawn(...args);
      const seen = { returnedAt: clock(), reads: [], writes: [] };
      spawned.push(seen);
      child.stdout?.prependListener("data", (chunk) => seen.reads.push({ at: clock(), text: String(chunk) }));
      const write = child.stdin?.write;
      if (write)
        child.stdin.write = function (chunk, ...rest) {
          seen.writes.push({ at: clock(), text: typeof chunk === "string" ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString() });
          return write.call(this, chunk, ...rest);
        };
      return child;
    },
    { benchRecording: true },
  );
  // The control plane imports `spawn` from node:child_process as an ES module binding.
  syncBuiltinESMExports();
}

/** The gateway's share of one spawn: until the process exists, then each answer → next request turnaround. */
function gatewayShare(seen, t0) {
  const firstRead = (after, test) => seen.reads.find((r) => r.at >= after && test(r.text));
  const firstWrite = (test) => seen.writes.find((w) => test(w.text));
  const initialized = firstRead(0, (t) => t.includes('"protocolVersion"') && t.includes('"result"'));
  const sessionNew = firstWrite((t) => t.includes('"session/new"'));
  const created = firstRead(sessionNew?.at ?? Infinity, (t) => t.includes('"sessionId"') && t.includes('"result"'));
  const prompt = firstWrite((t) => t.includes('"session/prompt"'));
  if (!initialized || !sessionNew || !created || !prompt) throw new Error("acp bench: an agent's initialize / session/new / session/prompt exchange was not seen on its pipes");
  return { beforeProcess: seen.returnedAt - t0, afterInitialize: sessionNew.at - initialized.at, afterSessionNew: prompt.at - created.at };
}

export async function measureAcp({ spawnRuns = 8, chunks = 2000, concurrent = 20 } = {}) {
  recordSpawns();
  const { AcpSessionManager } = await dist("acp/control-plane/manager.js");
  const { StdioAcpRuntime } = await dist("acp/stdio/stdio-runtime.js");
  const { AcpChildren } = await dist("acp/spawn/acp-children.js");
  const { resolveAcpSettings } = await dist("acp/config.js");
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-acp-")));
  const log = path.join(dir, "agent.log");
  const settings = resolveAcpSettings({
    acp: { enabled: true, maxConcurrentSessions: concurrent, agents: { fake: { command: process.execPath, args: [FAKE_AGENT, "--log", log] } }, stream: { coalesceIdleMs: 1000 } },
    plugins: { entries: { acpx: { config: { timeoutSeconds: 120 } } } },
  });
  const logger = pino({ level: "silent" });
  const manager = new AcpSessionManager({
    stateDir: dir,
    settings: () => settings,
    logger,
    createRuntime: (hooks) => new StdioAcpRuntime({ settings: () => settings, logger, onProcess: hooks.onProcess }),
  });
  manager.start();
  const children = new AcpChildren({ manager, settings: () => settings, logger, relayProgress: async () => {} });
  const lines = () =>
    fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
  try {
    // 1. spawn → first prompt, minus the agent's own start.
    const overheads = [];
    const agentStarts = [];
    const shares = [];
    const cpuMs = [];
    const agentSide = [];
    for (let i = 0; i < spawnRuns; i++) {
      const cpuBefore = process.cpuUsage();
      spawned.length = 0;
      const t0 = clock();
      const prepared = children.prepare({ requesterSessionKey: "agent:main:main", agentId: "fake", workspaceDir: dir, persistent: false, label: `spawn-${i}` });
      const run = children.run({ sessionKey: prepared.sessionKey, text: `spawn-${i}`, mode: "prompt" });
      await run.done;
      const cpuUsed = process.cpuUsage(cpuBefore);
      cpuMs.push((cpuUsed.user + cpuUsed.system) / 1000);
      if (spawned.length !== 1) throw new Error(`spawn ${i}: expected one agent process, saw ${spawned.length}`);
      const share = gatewayShare(spawned[0], t0);
      // The same turnarounds in the agent's clock, from its answer reaching its stdout to the next
      // request reaching its JavaScript: they add the pipes, both processes waiting for a core,
      // and the agent's own event loop.
      const mine = lines().filter((l) => l.pid === lines().find((x) => x.method === "session/prompt" && x.text === `spawn-${i}`).pid);
      const at = (predicate) => mine.find(predicate);
      agentSide.push(
        at((l) => l.method === "session/new").arrivedAt -
          at((l) => l.responded === "initialize").hr +
          (at((l) => l.method === "session/prompt").arrivedAt - at((l) => l.responded === "session/new").hr),
      );
      agentStarts.push(at((l) => l.method === "session/prompt").arrivedAt - t0);
      overheads.push(share.beforeProcess + share.afterInitialize + share.afterSessionNew);
      shares.push(share);
    }
    // 2. relay cost per update.
    const relaySession = children.prepare({ requesterSessionKey: "agent:main:main", agentId: "fake", workspaceDir: dir, persistent: true });
    await children.run({ sessionKey: relaySession.sessionKey, text: "warm up #chunks:200", mode: "prompt", streamToParent: "agent:main:main" }).done;
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const relayed = await children.run({ sessionKey: relaySession.sessionKey, text: `#chunks:${chunks}`, mode: "prompt", streamToParent: "agent:main:main" }).done;
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - wall0;
    if (relayed.status !== "ok") throw new Error(`relay turn failed: ${relayed.error}`);
    await manager.close(relaySession.sessionKey, "bench");
    // 3. 20 concurrent sessions.
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const sessions = Array.from({ length: concurrent }, (_, i) =>
      children.prepare({ requesterSessionKey: "agent:main:main", agentId: "fake", workspaceDir: dir, persistent: true, label: `c-${i}` }),
    );
    const results = await Promise.all(sessions.map((s, i) => children.run({ sessionKey: s.sessionKey, text: `job-${i} #echo`, mode: "prompt" }).done));
    const rssLive = process.memoryUsage().rss;
    const mixedUp = results.filter((r, i) => r.text !== `echo: job-${i}`).length;
    const live = manager.activeProcesses;
    for (const s of sessions) await manager.close(s.sessionKey, "bench");
    return {
      spawnToFirstPromptOverheadMs: { p50: round(percentile(overheads, 50), 1), max: round(Math.max(...overheads), 1), runs: spawnRuns },
      spawnTurnGatewayCpuMs: { p50: round(percentile(cpuMs, 50), 1) },
      spawnToFirstPromptTotalMs: { p50: round(percentile(agentStarts, 50), 0) },
      turnaroundsInAgentClockMs: { p50: round(percentile(agentSide, 50), 1) },
      overheadShareMs: {
        beforeProcess: round(
          percentile(
            shares.map((s) => s.beforeProcess),
            50,
          ),
          1,
        ),
        afterInitialize: round(
          percentile(
            shares.map((s) => s.afterInitialize),
            50,
          ),
          1,
        ),
        afterSessionNew: round(
          percentile(
            shares.map((s) => s.afterSessionNew),
            50,
          ),
          1,
        ),
      },
      relay: { updates: chunks, cpuMsPerUpdate: round((cpu.user + cpu.system) / 1000 / chunks, 3), turnWallMs: round(wallMs, 0) },
      concurrentSessions: {
        sessions: concurrent,
        liveProcesses: live,
        mixedUp,
        rssBeforeMiB: round(rssBefore / MiB, 1),
        rssLiveMiB: round(rssLive / MiB, 1),
        rssGrowthMiB: round((rssLive - rssBefore) / MiB, 1),
      },
    };
  } finally {
    await manager.stop();
    if (process.env.BENCH_KEEP) fs.copyFileSync(log, "/tmp/acp14-agent.log");
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureAcp();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `acp: spawn→prompt overhead p50 ${result.spawnToFirstPromptOverheadMs.p50} ms (of ${result.spawnToFirstPromptTotalMs.p50} ms in all; gateway CPU for the whole spawn+turn ${result.spawnTurnGatewayCpuMs.p50} ms) · relay ${result.relay.cpuMsPerUpdate} ms CPU/update · ${result.concurrentSessions.sessions} sessions +${result.concurrentSessions.rssGrowthMiB} MiB RSS\n`,
  );
}
