// Conversation throughput through /v1/chat/completions with an instant fake model:
// spawn → first reply, RSS when ready, sequential turn latency, 10 concurrent sessions, and RSS
// growth over many turns. Same machine, same fake model as the real-OpenClaw figures quoted.
import fs from "node:fs";
import path from "node:path";
import { startInstantModel } from "./lib/instant-model.mjs";
import { freePort, HOST, makeTempDir, spawnGateway } from "./lib/spawn-gateway.mjs";
import { MiB, now, percentile, round, sleep } from "./lib/util.mjs";
import { createChatClient } from "./lib/chat-client.mjs";

const TOKEN = "bench-conversations";

const chat = createChatClient({ host: HOST, token: TOKEN, maxSockets: 64 });

export async function measureConversations({ totalTurns = 10_000 } = {}) {
  const model = await startInstantModel();
  const stateDir = makeTempDir("conversations");
  const port = await freePort();
  fs.writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
      agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: "fake/fake-model" } },
      models: { providers: { fake: { baseUrl: `http://${HOST}:${model.port}/v1`, apiKey: "sk-bench", api: "openai-completions" } } },
    }),
  );
  const gw = spawnGateway({ label: "conversations", stateDir, port });
  try {
    // Spawn → first reply: retry until the gateway answers a real turn.
    let firstReplyMs;
    for (let attempt = 0; attempt < 2000 && firstReplyMs === undefined; attempt++) {
      try {
        await chat(port, "first", "hi");
        firstReplyMs = now() - gw.spawnedAt;
      } catch {
        await sleep(2);
      }
    }
    await sleep(500);
    const readyRssMiB = round(gw.rssBytes("rss when ready") / MiB, 1);

    const sequential = [];
    for (let i = 0; i < 200; i++) {
      const t = now();
      await chat(port, "sequential", `turn ${i}`);
      sequential.push(now() - t);
    }

    // 10 sessions, each sending its turns one after another, all sessions at once.
    const runConcurrent = async (turnsPerSession) => {
      const latencies = [];
      const started = now();
      await Promise.all(
        Array.from({ length: 10 }, async (_, s) => {
          for (let i = 0; i < turnsPerSession; i++) {
            const t = now();
            await chat(port, `concurrent-${s}`, `message ${i}`);
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
    const rssBeforeMiB = gw.rssBytes("rss before soak") / MiB;
    const soak = await runConcurrent(Math.ceil(totalTurns / 10));
    await sleep(500);
    const rssAfterMiB = gw.rssBytes("rss after soak") / MiB;
    return {
      firstReplyMs: round(firstReplyMs, 1),
      readyRssMiB,
      sequentialTurnMs: { p50: round(percentile(sequential, 50), 2), p95: round(percentile(sequential, 95), 2), turns: sequential.length },
      tenSessions: concurrent,
      soak: { ...soak, rssBeforeMiB: round(rssBeforeMiB, 1), rssAfterMiB: round(rssAfterMiB, 1), rssGrowthMiB: round(rssAfterMiB - rssBeforeMiB, 1) },
      modelRequests: model.count(),
    };
  } finally {
    await gw.stop(5000, "conversations: SIGTERM").catch(() => {});
    await gw.dispose();
    model.server.close();
    chat.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const turns = Number(process.env.BENCH_SOAK_TURNS ?? 10_000);
  console.log(JSON.stringify(await measureConversations({ totalTurns: turns }), null, 2));
}
