// Automation: the scheduler's cost with 10,000 jobs loaded (event-loop time per tick, RSS), how
// late a due job starts its turn, and how fast a webhook is accepted. The scheduler figures run in
// process against the unbundled dist/ build with a real SQLite store; the webhook figure against a
// spawned gateway.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freePort, HOST, makeTempDir, REPO_ROOT, spawnGateway } from "./lib/spawn-gateway.mjs";
import { median, MiB, now, percentile, round, sleep } from "./lib/util.mjs";

const JOBS = 10_000;
const TICKS = 200;
const DUE_JOBS = 30;
const WEBHOOKS = 300;
const HOOK_TOKEN = "bench-hooks-token";

const dist = (rel) => import(pathToFileURL(path.join(REPO_ROOT, "dist", rel)).href);

/** The conversation core as the scheduler sees it, answering at once; `onSubmit` sees each submit. */
function instantConversations(onSubmit) {
  return {
    resolveSessionKey: (key, agentId = "main") => ({ sessionKey: key ? `agent:${agentId}:${key}` : `agent:${agentId}:main`, agentId }),
    reset: () => ({ kind: "reset" }),
    isActive: () => false,
    runs: { get: () => undefined, activeFor: () => [] },
    async submit(input) {
      onSubmit(input);
      const run = { runId: input.idempotencyKey, sessionKey: input.sessionKey, agentId: "main", status: "ok", acceptedAt: Date.now(), result: { payloads: [] } };
      run.done = Promise.resolve(run);
      return { kind: "accepted", run, queued: "started" };
    },
  };
}

async function measureScheduler() {
  const { CronService } = await dist("src/cron/cron-service.js");
  const { applyDefaults } = await dist("src/config/defaults.js");
  const config = applyDefaults({ cron: { maxConcurrentRuns: 4 } });
  const logger = { info() {}, warn() {}, debug() {}, error() {} };
  const submitted = new Map();
  const stateDir = makeTempDir("automation");
  const service = new CronService({
    stateDir,
    config: () => config,
    logger,
    env: {},
    emit: () => {},
    channels: () => undefined,
    conversations: instantConversations((input) => submitted.set(input.message, Date.now())),
  });
  await service.start();
  // The store and SQLite itself load with the first job: measured before the 10,000 are added.
  await service.add({ name: "warm", schedule: { kind: "every", every: "1d" }, sessionTarget: "isolated", payload: { kind: "agentTurn", message: "warm" } });
  for (let i = 0; i < JOBS; i++) {
    await service.add({
      name: `job ${i}`,
      schedule: i % 2 ? { kind: "every", every: `${1 + (i % 50)}h` } : { kind: "cron", expr: `${i % 60} ${i % 24} * * *`, tz: "Europe/Berlin" },
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: `job ${i}` },
    });
  }
  // A tick with nothing due: the scan for due jobs and the re-armed timer, on the event loop.
  const ticks = [];
  for (let i = 0; i < TICKS; i++) {
    // Ticks come one per due time, apart: each measured on its own turn of the event loop.
    await sleep(2);
    const started = now();
    service.wake();
    ticks.push(now() - started);
  }
  // Due jobs: each `at` a little in the future; latency = submit time − due time.
  const latencies = [];
  for (let i = 0; i < DUE_JOBS; i++) {
    const dueAt = Date.now() + 100;
    await service.add({
      name: `due ${i}`,
      schedule: { kind: "at", at: new Date(dueAt).toISOString() },
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: `due ${i}` },
    });
    const deadline = Date.now() + 5_000;
    while (!submitted.has(`due ${i}`) && Date.now() < deadline) await sleep(5);
    if (submitted.has(`due ${i}`)) latencies.push(submitted.get(`due ${i}`) - dueAt);
  }
  await service.stop();
  const rssGrowthMiB = await gatewayRssWithJobs(stateDir);
  fs.rmSync(stateDir, { recursive: true, force: true });
  return {
    jobs: JOBS,
    tickMs: { p50: round(percentile(ticks, 50), 3), p95: round(percentile(ticks, 95), 3), max: round(Math.max(...ticks), 3) },
    rssGrowthMiB,
    dueStartLatencyMs: { p50: round(percentile(latencies, 50), 1), p95: round(percentile(latencies, 95), 1), max: round(Math.max(...latencies), 1), samples: latencies.length },
  };
}

/** Gateways spawned with and without the jobs, alternately: one pair's difference moves with GC timing by about as much as the whole figure. */
const RSS_PAIRS = 3;

/** RSS of a gateway that loaded the 10,000 jobs in `jobsStateDir`, minus one with none (SQLite included): the median over the pairs. */
async function gatewayRssWithJobs(jobsStateDir) {
  const rssOf = async (stateDir, label) => {
    const port = await freePort();
    const gateway = spawnGateway({ label, stateDir, port, token: "bench-gateway-token" });
    try {
      await gateway.waitForReady(15_000);
      await sleep(1500);
      return gateway.rssBytes(`${label}: rss`) / MiB;
    } finally {
      await gateway.stop();
    }
  };
  const growth = [];
  for (let pair = 1; pair <= RSS_PAIRS; pair++) {
    const without = await rssOf(makeTempDir("cron-empty"), `cron-none#${pair}`);
    const withJobs = await rssOf(jobsStateDir, `cron-10k#${pair}`);
    growth.push(withJobs - without);
  }
  return round(median(growth), 1);
}

async function measureWebhooks() {
  const stateDir = makeTempDir("hooks");
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ hooks: { enabled: true, token: HOOK_TOKEN } }));
  const port = await freePort();
  const gateway = spawnGateway({ label: "hooks", stateDir, port, token: "bench-gateway-token" });
  try {
    await gateway.waitForReady(15_000);
    // A keep-alive client, as a service posting many webhooks would use: the figure is the gateway's, not TCP set-up.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (i) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ text: `event ${i}`, mode: "next-heartbeat" });
        const req = http.request(
          {
            host: HOST,
            port,
            path: "/hooks/wake",
            method: "POST",
            agent,
            headers: {
              authorization: `Bearer ${HOOK_TOKEN}`,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
              "idempotency-key": `bench-${i}`,
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    for (let i = 0; i < 50; i++) await post(`warm-${i}`);
    const samples = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const started = now();
      const status = await post(i);
      if (status !== 200) throw new Error(`webhook answered ${status}`);
      samples.push(now() - started);
    }
    agent.destroy();
    return { requests: WEBHOOKS, acceptMs: { p50: round(percentile(samples, 50), 2), p95: round(percentile(samples, 95), 2), max: round(Math.max(...samples), 2) } };
  } finally {
    await gateway.stop();
  }
}

export async function measureAutomation() {
  return { scheduler: await measureScheduler(), webhooks: await measureWebhooks() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await measureAutomation(), null, 2));
}
