// The gateway beside the floor (bench/floor.mjs: the least a Node process must do for one
// /v1/chat/completions turn): the same instant model, the same client, the same load, measured in
// the same run, alternating, best of the rounds. Reported as ratios to the floor.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createChatClient } from "./lib/chat-client.mjs";
import { startInstantModel } from "./lib/instant-model.mjs";
import { freePort, HOST, makeTempDir, spawnBareListener, spawnGateway, spawnScript } from "./lib/spawn-gateway.mjs";
import { MiB, median, now, percentile, round, sleep } from "./lib/util.mjs";

const FLOOR_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "floor.mjs");
const TOKEN = "bench-floor";

/** One target under load: warm-up, sequential turns (p50), 10 sessions at once (turns/s), RSS after. */
async function measureTarget(kind, model, { sequentialTurns, sessions, turnsPerSession }) {
  const stateDir = makeTempDir(`floor-${kind}`);
  const port = await freePort();
  let proc;
  if (kind === "floor" || kind === "shapedFloor") {
    const env = { PORT: String(port), LLM_PORT: String(model.port), STATE: stateDir, TOKEN };
    if (kind === "shapedFloor") env.FLOOR_REQUEST_SHAPE = gatewayRequestFile(model, stateDir);
    proc = spawnScript({ label: kind, script: FLOOR_SCRIPT, env, port, stateDir });
  } else {
    fs.writeFileSync(
      path.join(stateDir, "openclaw.json"),
      JSON.stringify({
        gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
        agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: "fake/fake-model" } },
        models: { providers: { fake: { baseUrl: `http://${HOST}:${model.port}/v1`, apiKey: "sk-bench", api: "openai-completions" } } },
        // OpenClaw offers the browser tool by default wherever Chromium is installed; the bench measures the turn without it.
        browser: { enabled: false },
      }),
    );
    proc = spawnGateway({ label: "gateway-vs-floor", stateDir, port });
  }
  const chat = createChatClient({ host: HOST, token: TOKEN, maxSockets: 64 });
  try {
    const portOpenMs = await proc.waitForPortOpen(15_000, `${kind}: spawn → port open`);
    // Warm-up: the first turns load SDKs and fill caches on the gateway.
    for (let attempt = 0; ; attempt++) {
      try {
        await chat(port, "warm", "hi");
        break;
      } catch (err) {
        if (attempt > 2000) throw err;
        await sleep(2);
      }
    }
    for (let i = 0; i < 20; i++) await chat(port, `warm-${i % 10}`, `warm ${i}`);
    const sequential = [];
    const split = new TurnSplit();
    const cpu = new CpuPerTurn(proc);
    cpu.begin();
    for (let i = 0; i < sequentialTurns; i++) {
      const requestsBefore = model.count();
      const t = now();
      await chat(port, "sequential", `turn ${i}`);
      const done = now();
      sequential.push(done - t);
      if (model.count() === requestsBefore + 1) split.add(t, model.lastRequest(), done);
    }
    cpu.end("sequential", sequentialTurns);
    cpu.begin();
    const started = now();
    await Promise.all(
      Array.from({ length: sessions }, async (_, s) => {
        for (let i = 0; i < turnsPerSession; i++) await chat(port, `concurrent-${s}`, `message ${i}`);
      }),
    );
    const turnsPerSecond = (sessions * turnsPerSession) / ((now() - started) / 1000);
    cpu.end("concurrent", sessions * turnsPerSession);
    await sleep(300);
    const rssMiB = proc.rssBytes(`${kind}: rss after load`) / MiB;
    return { portOpenMs, turnP50Ms: percentile(sequential, 50), turnSplit: split.medians(), turnsPerSecond, cpuPerTurnMs: cpu.perTurn, rssMiB };
  } finally {
    chat.close();
    await proc.stop?.(5000, `${kind}: SIGTERM`).catch(() => {});
    await proc.dispose();
  }
}

/** The first request body the gateway sent the model with its tools, written to a file for the shaped floor. */
function gatewayRequestFile(model, dir) {
  const body = model.capturedBody();
  if (body === undefined) throw new Error("shapedFloor: the gateway has not called the model with tools yet");
  const file = path.join(dir, "gateway-request.json");
  fs.writeFileSync(file, body);
  return file;
}

/**
 * Where a sequential turn's time goes, split at the model call (the instant model runs in this
 * process, so its clock is the client's): `beforeModelMs` from sending the request until the model
 * has the call (request handling, session, prompt, history and the call itself), `modelMs` the
 * instant model's own time (reading the call, writing the answer), `afterModelMs` from the answer
 * written until the client has the reply (reading the stream, the transcript and its fsync, the
 * reply). Medians over the turns that made exactly one model call.
 */
class TurnSplit {
  before = [];
  model = [];
  after = [];

  add(sentAt, { receivedAt, answeredAt }, doneAt) {
    this.before.push(receivedAt - sentAt);
    this.model.push(answeredAt - receivedAt);
    this.after.push(doneAt - answeredAt);
  }

  medians() {
    return { turns: this.before.length, beforeModelMs: round(median(this.before), 2), modelMs: round(median(this.model), 2), afterModelMs: round(median(this.after), 2) };
  }
}

/**
 * CPU time per turn of one phase: the measured process's (`process`), its main thread's
 * (`mainThread`; the rest is V8's worker thread and libuv's pool), and the bench's own process
 * (`bench`: the client and the instant model, which share the machine's cores with it). From
 * /proc, counted in 10 ms ticks, so good to about 10 ms over the phase's turns.
 */
class CpuPerTurn {
  perTurn = {};
  #at;

  constructor(proc) {
    this.proc = proc;
  }

  begin() {
    this.#at = { process: this.proc.cpuMs(), mainThread: this.proc.mainThreadCpuMs(), bench: process.cpuUsage() };
  }

  end(phase, turns) {
    const bench = process.cpuUsage(this.#at.bench);
    this.perTurn[phase] = {
      process: round((this.proc.cpuMs() - this.#at.process) / turns, 2),
      mainThread: round((this.proc.mainThreadCpuMs() - this.#at.mainThread) / turns, 2),
      bench: round((bench.user + bench.system) / 1000 / turns, 2),
    };
  }
}

/** Best of the rounds: the lowest p50, RSS and CPU per turn, the highest throughput (noise only ever adds cost). */
function best(runs) {
  const fastest = runs.reduce((a, b) => (b.turnP50Ms < a.turnP50Ms ? b : a));
  return {
    turnP50Ms: round(fastest.turnP50Ms, 2),
    // The split of the round whose p50 counts.
    turnSplit: fastest.turnSplit,
    turnsPerSecond: round(Math.max(...runs.map((r) => r.turnsPerSecond)), 1),
    rssMiB: round(Math.min(...runs.map((r) => r.rssMiB)), 1),
    cpuPerTurnMs: lowestCpu(runs.map((r) => r.cpuPerTurnMs)),
    portOpenMs: round(median(runs.map((r) => r.portOpenMs)), 1),
  };
}

/** Each phase's figures, the lowest of the rounds for each. */
function lowestCpu(perRound) {
  const lowest = {};
  for (const phase of Object.keys(perRound[0])) {
    lowest[phase] = {};
    for (const figure of Object.keys(perRound[0][phase])) lowest[phase][figure] = Math.min(...perRound.map((r) => r[phase][figure]));
  }
  return lowest;
}

export async function measureAgainstFloor({ rounds = 2, sequentialTurns = 200, sessions = 10, turnsPerSession = 20, bareRuns = 5 } = {}) {
  const model = await startInstantModel({ captureBodyWith: '"tools":[' });
  const load = { sequentialTurns, sessions, turnsPerSession };
  const runs = { floor: [], gateway: [], shapedFloor: [] };
  try {
    // The shaped floor needs a request the gateway sent, so it never goes first.
    const orders = [
      ["floor", "gateway", "shapedFloor"],
      ["shapedFloor", "gateway", "floor"],
    ];
    for (let round_ = 0; round_ < rounds; round_++) {
      for (const kind of orders[round_ % 2]) runs[kind].push(await measureTarget(kind, model, load));
    }
  } finally {
    model.server.close();
  }
  const bare = [];
  for (let i = 0; i < bareRuns; i++) {
    const proc = spawnBareListener({ label: `bare-listener#${i}`, port: await freePort() });
    try {
      bare.push(await proc.waitForPortOpen(10_000));
    } finally {
      await proc.dispose();
    }
  }
  const gatewaySpawns = [];
  for (let i = 0; i < bareRuns; i++) {
    const stateDir = makeTempDir("floor-spawn");
    const proc = spawnGateway({ label: `gateway-spawn#${i}`, stateDir, port: await freePort(), token: TOKEN });
    try {
      gatewaySpawns.push(await proc.waitForPortOpen(10_000));
    } finally {
      await proc.stop?.(5000).catch(() => {});
      await proc.dispose();
    }
  }
  const floor = best(runs.floor);
  const gateway = best(runs.gateway);
  const shapedFloor = best(runs.shapedFloor);
  const bareMs = round(median(bare), 1);
  const gatewayPortOpenMs = round(median(gatewaySpawns), 1);
  return {
    load: { ...load, rounds, instantModel: true },
    floor,
    gateway,
    shapedFloor,
    bareListenerPortOpenMs: bareMs,
    gatewayPortOpenMs,
    // Three decimals: the targets are "at most" / "at least" a ratio, and a ratio rounded to two
    // would put 1.504 and 1.496 on the same side of 1.5.
    ratios: {
      turnP50: round(gateway.turnP50Ms / floor.turnP50Ms, 3),
      throughput: round(gateway.turnsPerSecond / floor.turnsPerSecond, 3),
      rss: round(gateway.rssMiB / floor.rssMiB, 3),
      portOpenVsBareNode: round(gatewayPortOpenMs / bareMs, 3),
    },
    // Where throughput goes: the gateway's CPU per concurrent turn ÷ the floor's, for the whole
    // process and its main thread. Not targets.
    cpuRatios: {
      concurrentProcess: round(gateway.cpuPerTurnMs.concurrent.process / floor.cpuPerTurnMs.concurrent.process, 2),
      concurrentMainThread: round(gateway.cpuPerTurnMs.concurrent.mainThread / floor.cpuPerTurnMs.concurrent.mainThread, 2),
    },
    // What the gateway's request shape alone (system prompt, tools, history) costs the floor, and
    // the gateway beside a floor that sends the same shape: the part of the distance the gateway's
    // own work makes.
    shapeRatios: {
      shapedFloorTurnP50: round(shapedFloor.turnP50Ms / floor.turnP50Ms, 3),
      shapedFloorThroughput: round(shapedFloor.turnsPerSecond / floor.turnsPerSecond, 3),
      gatewayVsShapedTurnP50: round(gateway.turnP50Ms / shapedFloor.turnP50Ms, 3),
      gatewayVsShapedThroughput: round(gateway.turnsPerSecond / shapedFloor.turnsPerSecond, 3),
    },
    runs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureAgainstFloor({ rounds: Number(process.env.BENCH_FLOOR_ROUNDS ?? 2) }), null, 2));
}
