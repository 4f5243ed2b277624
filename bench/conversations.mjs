// Conversation throughput through /v1/chat/completions with an instant fake model:
// spawn → first reply, RSS when ready, sequential turn latency, 10 concurrent sessions, and RSS
// growth over many turns. Same machine, same fake model as the real-OpenClaw figures quoted.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { freePort, HOST, makeTempDir, spawnGateway } from "./lib/spawn-gateway.mjs";
import { MiB, now, percentile, round, sleep } from "./lib/util.mjs";

const TOKEN = "bench-conversations";

/** An OpenAI-compatible endpoint that answers every request at once, streaming or not. */
function startInstantModel() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests += 1;
      const parsed = JSON.parse(body || "{}");
      if (!parsed.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "x", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta, finish) => `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: "assistant", content: "ok" }, null));
      res.write(chunk({}, "stop"));
      res.write(`data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, HOST, () => resolve({ server, port: server.address().port, count: () => requests })));
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function chat(port, user, text) {
  const body = JSON.stringify({ model: "openclaw", user, messages: [{ role: "user", content: text }] });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: HOST, port, path: "/v1/chat/completions", method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}`, "content-length": Buffer.byteLength(body) } }, (res) => {
      let data = "";
      res.on("data", (c) => (data += c));
      res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(data)) : reject(new Error(`HTTP ${res.statusCode}: ${data.slice(0, 200)}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function measureConversations({ totalTurns = 10_000 } = {}) {
  const model = await startInstantModel();
  const stateDir = makeTempDir("conversations");
  const port = await freePort();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({
    gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: "fake/fake-model" } },
    models: { providers: { fake: { baseUrl: `http://${HOST}:${model.port}/v1`, apiKey: "sk-bench", api: "openai-completions" } } },
  }));
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
      await Promise.all(Array.from({ length: 10 }, async (_, s) => {
        for (let i = 0; i < turnsPerSession; i++) {
          const t = now();
          await chat(port, `concurrent-${s}`, `message ${i}`);
          latencies.push(now() - t);
        }
      }));
      const seconds = (now() - started) / 1000;
      return { turns: latencies.length, turnsPerSecond: round(latencies.length / seconds, 1), p50Ms: round(percentile(latencies, 50), 2), p95Ms: round(percentile(latencies, 95), 2) };
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
    agent.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const turns = Number(process.env.BENCH_SOAK_TURNS ?? 10_000);
  console.log(JSON.stringify(await measureConversations({ totalTurns: turns }), null, 2));
}
