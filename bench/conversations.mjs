// Conversation throughput through /v1/chat/completions with an instant fake model:
// spawn → first reply, RSS when ready, sequential turn latency, 10 concurrent sessions, and RSS
// growth over many turns with compaction running. Same machine, same fake model as the
// real-OpenClaw figures quoted.
import fs from "node:fs";
import path from "node:path";
import { startInstantModel } from "./lib/instant-model.mjs";
import { freePort, HOST, makeTempDir, spawnGateway } from "./lib/spawn-gateway.mjs";
import { median, MiB, now, percentile, round, sleep, StepError } from "./lib/util.mjs";
import { createChatClient } from "./lib/chat-client.mjs";

const TOKEN = "bench-conversations";
/**
 * The soak's own agent: the same instant model under a second id whose window is small enough
 * that each soak session compacts again and again. Everything before the soak talks to the
 * default agent (the model's default 200,000-token window), as the older runs did.
 */
const SOAK_AGENT = "soak";
const SOAK_WINDOW_TOKENS = 10_000;
/** Sessions talking at once, in the ten-session run and in the soak. */
const CONCURRENT_SESSIONS = 10;
/**
 * About 60 tokens per soak message (the gateway counts four characters a token), so that a
 * session's conversation rather than the ~1,800-token system prompt fills the window between
 * two compactions.
 */
const SOAK_FILLER =
  "a few words of ordinary chat about the weather, the plans for the weekend and the book on the table, long enough that a session's own turns and not its system prompt fill the window between compactions.";

const chat = createChatClient({ host: HOST, token: TOKEN, maxSockets: 64 });

/** Sessions added to the default agent's index before the one-off turns: as many as maintenance keeps per agent. */
const INDEXED_SESSIONS = 500;
const ONE_OFF_TURNS = 200;

/**
 * Turns without a `user` (an anonymous HTTP request: a one-off session, created and then
 * discarded) alternating with turns in one existing session, once the default agent's index
 * holds INDEXED_SESSIONS more sessions: what creating and discarding a session adds to a turn.
 */
async function measureOneOffTurns(port) {
  for (let i = 0; i < INDEXED_SESSIONS; i++) await chat(port, `indexed-${i}`, "hi");
  const oneOff = [];
  const sameSession = [];
  for (let i = 0; i < ONE_OFF_TURNS; i++) {
    let t = now();
    await chat(port, undefined, `one-off ${i}`);
    oneOff.push(now() - t);
    t = now();
    await chat(port, "indexed-0", `again ${i}`);
    sameSession.push(now() - t);
  }
  return {
    indexedSessions: INDEXED_SESSIONS,
    turns: ONE_OFF_TURNS,
    oneOffP50Ms: round(percentile(oneOff, 50), 2),
    sameSessionP50Ms: round(percentile(sameSession, 50), 2),
  };
}

/** Fresh gateways timed from spawn to first reply: one reading moves by more than the target's margin from run to run. */
const FIRST_REPLY_SPAWNS = 3;

function writeConfig(stateDir, modelPort) {
  fs.writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
      agents: {
        defaults: {
          workspace: path.join(stateDir, "workspace"),
          model: "fake/fake-model",
          // The soak's window is below the guard's floor and warning mark: lowered on purpose here.
          contextWindowGuard: { hardMinTokens: SOAK_WINDOW_TOKENS, warnBelowTokens: SOAK_WINDOW_TOKENS },
        },
        entries: { main: { default: true }, [SOAK_AGENT]: { model: "fake/fake-soak" } },
      },
      models: {
        providers: {
          fake: {
            baseUrl: `http://${HOST}:${modelPort}/v1`,
            apiKey: "sk-bench",
            api: "openai-completions",
            models: [{ id: "fake-soak", contextWindow: SOAK_WINDOW_TOKENS, maxTokens: 512 }],
          },
        },
      },
    }),
  );
}

/** Spawn → first reply: retries until the gateway answers a real turn. */
async function firstReplyAfterSpawn(gw, port) {
  for (let attempt = 0; attempt < 2000; attempt++) {
    try {
      await chat(port, "first", "hi");
      return now() - gw.spawnedAt;
    } catch {
      await sleep(2);
    }
  }
  throw new StepError("conversations: spawn → first reply", "no reply after 2,000 attempts");
}

/** More fresh gateways (state dir and all) timed from spawn to first reply, then stopped. */
async function moreFirstReplies(modelPort, count) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const stateDir = makeTempDir("first-reply");
    const port = await freePort();
    writeConfig(stateDir, modelPort);
    const gw = spawnGateway({ label: `first-reply#${i + 2}`, stateDir, port });
    try {
      samples.push(await firstReplyAfterSpawn(gw, port));
    } finally {
      await gw.stop(5000, `first-reply#${i + 2}: SIGTERM`).catch(() => {});
      await gw.dispose();
    }
  }
  return samples;
}

export async function measureConversations({ totalTurns = 10_000 } = {}) {
  const model = await startInstantModel();
  const stateDir = makeTempDir("conversations");
  const port = await freePort();
  writeConfig(stateDir, model.port);
  const gw = spawnGateway({ label: "conversations", stateDir, port });
  try {
    const firstReplies = [await firstReplyAfterSpawn(gw, port)];
    await sleep(500);
    const readyRssMiB = round(gw.rssBytes("rss when ready") / MiB, 1);

    const sequential = [];
    for (let i = 0; i < 200; i++) {
      const t = now();
      await chat(port, "sequential", `turn ${i}`);
      sequential.push(now() - t);
    }

    // 10 sessions, each sending its turns one after another, all sessions at once.
    const runConcurrent = async (turnsPerSession, { user = "concurrent", model: agentModel = "openclaw", filler = "" } = {}) => {
      const latencies = [];
      const started = now();
      await Promise.all(
        Array.from({ length: CONCURRENT_SESSIONS }, async (_, s) => {
          for (let i = 0; i < turnsPerSession; i++) {
            const t = now();
            await chat(port, `${user}-${s}`, filler ? `message ${i}: ${filler}` : `message ${i}`, agentModel);
            latencies.push(now() - t);
          }
        }),
      );
      const seconds = (now() - started) / 1000;
      return {
        turns: latencies.length,
        turnsPerSecond: round(latencies.length / seconds, 1),
        p50Ms: round(percentile(latencies, 50), 2),
        p95Ms: round(percentile(latencies, 95), 2),
      };
    };
    const concurrent = await runConcurrent(100);
    const oneOffTurns = await measureOneOffTurns(port);
    // One turn per soak session first, so the soak agent's first-turn set-up (its session index,
    // prompt, tools) is not counted as growth: the sessions above were warm in the same way.
    const soakAgent = { user: "soak", model: `openclaw:${SOAK_AGENT}`, filler: SOAK_FILLER };
    await runConcurrent(1, soakAgent);
    const rssBeforeMiB = gw.rssBytes("rss before soak") / MiB;
    const soak = await runConcurrent(Math.ceil(totalTurns / CONCURRENT_SESSIONS), soakAgent);
    await sleep(500);
    const rssAfterMiB = gw.rssBytes("rss after soak") / MiB;
    // SIGTERM writes the session index at once (counters are otherwise written coalesced).
    await gw.stop(5000, "conversations: SIGTERM");
    const compactions = soakCompactions(stateDir);
    // Timed once the soak's gateway is gone, so nothing else runs beside their start-up.
    firstReplies.push(...(await moreFirstReplies(model.port, FIRST_REPLY_SPAWNS - 1)));
    return {
      firstReplyMs: round(median(firstReplies), 1),
      firstReplySamplesMs: firstReplies.map((ms) => round(ms, 1)),
      readyRssMiB,
      sequentialTurnMs: { p50: round(percentile(sequential, 50), 2), p95: round(percentile(sequential, 95), 2), turns: sequential.length },
      tenSessions: concurrent,
      oneOffTurns,
      soak: {
        ...soak,
        windowTokens: SOAK_WINDOW_TOKENS,
        compactions,
        rssBeforeMiB: round(rssBeforeMiB, 1),
        rssAfterMiB: round(rssAfterMiB, 1),
        rssGrowthMiB: round(rssAfterMiB - rssBeforeMiB, 1),
      },
      modelRequests: model.count(),
    };
  } finally {
    if (gw.isRunning) await gw.stop(5000, "conversations: SIGTERM").catch(() => {});
    await gw.dispose();
    model.server.close();
    chat.close();
  }
}

/**
 * Compactions of the soak agent's sessions, from each session row's `compactionCount` in the
 * agent's session index: the total and the fewest and most of one session.
 */
function soakCompactions(stateDir) {
  const index = JSON.parse(fs.readFileSync(path.join(stateDir, "agents", SOAK_AGENT, "sessions", "sessions.json"), "utf8"));
  const counts = Object.values(index).map((entry) => entry.compactionCount ?? 0);
  if (counts.length !== CONCURRENT_SESSIONS)
    throw new StepError("soak: count compactions", `expected ${CONCURRENT_SESSIONS} sessions in the ${SOAK_AGENT} agent's index, found ${counts.length}`);
  return { total: counts.reduce((a, b) => a + b, 0), perSessionMin: Math.min(...counts), perSessionMax: Math.max(...counts) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const turns = Number(process.env.BENCH_SOAK_TURNS ?? 10_000);
  console.log(JSON.stringify(await measureConversations({ totalTurns: turns }), null, 2));
}
