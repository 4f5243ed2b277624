// Failover cost: how much gateway time moving to the second provider adds beyond the failed
// attempt. Real providers (OpenAI SDK, node:http fetch) and the real FailoverTurn, against two
// local endpoints in a child process: "down" answers HTTP 500 at once, "up" streams a short reply.
// Imports the unbundled tsc output (dist/src/models): the same code the bundle holds.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "./lib/spawn-gateway.mjs";
import { round } from "./lib/util.mjs";

const dist = (p) => import(pathToFileURL(path.join(REPO_ROOT, "dist", "src", p)).href);

// The two endpoints live in their own process, so their work is not counted as the gateway's.
const SERVERS = `
const http = require("node:http");
const chunk = (delta, finish) => "data: " + JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] }) + "\\n\\n";
const down = http.createServer((req, res) => { req.resume(); req.on("end", () => { const b = JSON.stringify({ error: { message: "boom", type: "server_error" } }); res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(b) }); res.end(b); }); });
const up = http.createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "text/event-stream" }); res.write(chunk({ role: "assistant", content: "hello" }, null)); res.write(chunk({}, "stop")); res.end("data: [DONE]\\n\\n"); }); });
down.listen(0, "127.0.0.1", () => up.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ down: down.address().port, up: up.address().port }) + "\\n")));
`;

function startServers() {
  const child = spawn(process.execPath, ["-e", SERVERS], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", (data) => resolve({ child, ports: JSON.parse(String(data)) }));
  });
}

/** Runs the calls in turn (one of each per round), so load on the machine hits all of them alike. */
async function timeInterleaved(calls, iterations) {
  for (let i = 0; i < 50; i++) for (const fn of Object.values(calls)) await fn();
  const samples = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  for (let i = 0; i < iterations; i++) {
    for (const [name, fn] of Object.entries(calls)) {
      const t = performance.now();
      await fn();
      samples[name].push(performance.now() - t);
    }
  }
  const stats = (list) => {
    list.sort((a, b) => a - b);
    return { meanMs: round(list.reduce((a, b) => a + b, 0) / list.length, 3), p50Ms: round(list[Math.floor(list.length / 2)], 3) };
  };
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
}

export async function measureFailover({ iterations = 300 } = {}) {
  const { validateConfig } = await dist("config/index.js");
  const { createStreamModel } = await dist("models/index.js");
  const { AuthProfileStore, buildCandidateChain, FailoverTurn } = await dist("models/failover/index.js");
  const { child, ports } = await startServers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-failover-"));
  try {
    const { config } = validateConfig(
      {
        agents: { defaults: { model: { primary: "down/m", fallbacks: ["up/m"] } } },
        models: {
          providers: {
            down: { baseUrl: `http://127.0.0.1:${ports.down}/v1`, apiKey: "sk-bench-down", api: "openai-completions" },
            up: { baseUrl: `http://127.0.0.1:${ports.up}/v1`, apiKey: "sk-bench-up", api: "openai-completions" },
          },
        },
      },
      {},
    );
    const stream = createStreamModel();
    const store = new AuthProfileStore(path.join(dir, "auth-profiles.json"));
    const model = { ref: "down/m", provider: "down", id: "m", api: "openai-completions", contextWindow: 100000, maxTokens: 1000, reasoning: false, input: ["text"] };
    const request = { model, systemPrompt: "You are a bench.", messages: [{ role: "user", content: "hi", timestamp: 0 }], tools: [], maxTokens: 1000 };
    const call = async (requested, fallbacks) => {
      const chain = buildCandidateChain({ requested, strict: fallbacks.length === 0, fallbacks }, config);
      // The failed attempt alone is measured as it runs inside a chain: no SDK retry.
      const turn = new FailoverTurn({ chain, config, env: {}, store, stream, overload: { retries: 0, firstDelayMs: 1, maxDelayMs: 1 } });
      let end;
      for await (const event of turn.stream(request, new AbortController().signal)) {
        if (event.type === "done" || event.type === "error") {
          end = event;
          break;
        }
      }
      return end;
    };
    // The failed attempt as it runs inside a chain: one request, no SDK retry.
    const failedAttempt = async () => {
      const failing = { ...model, baseUrl: `http://127.0.0.1:${ports.down}/v1`, apiKey: "sk-bench-down", sdkMaxRetries: 0 };
      for await (const event of stream({ ...request, model: failing }, new AbortController().signal)) {
        if (event.type === "done") throw new Error("the failing endpoint answered");
        if (event.type === "error") break;
      }
    };
    const secondProviderAlone = async () => {
      const end = await call("up/m", []);
      if (end?.type !== "done") throw new Error(`the healthy endpoint failed: ${end?.error}`);
    };
    const failoverCall = async () => {
      const end = await call("down/m", ["up/m"]);
      if (end?.type !== "done") throw new Error(`failover did not reach the second provider: ${end?.error}`);
    };
    const timed = await timeInterleaved({ failedAttempt, secondProviderAlone, failoverCall }, iterations);
    return {
      iterations,
      ...timed,
      // What failover adds beyond the failed attempt and the answer the second provider gives anyway (medians).
      addedMs: round(Math.max(0, timed.failoverCall.p50Ms - timed.failedAttempt.p50Ms - timed.secondProviderAlone.p50Ms), 3),
    };
  } finally {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
