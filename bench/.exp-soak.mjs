import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { startInstantModel } from "./lib/instant-model.mjs";
import { freePort, HOST, makeTempDir } from "./lib/spawn-gateway.mjs";
import { now, sleep } from "./lib/util.mjs";
import { createChatClient } from "./lib/chat-client.mjs";
const TOKEN = "t";
const chat = createChatClient({ host: HOST, token: TOKEN, maxSockets: 64 });
const model = await startInstantModel();
const stateDir = fs.mkdtempSync("/tmp/exp-soak-");
const port = await freePort();
fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({
  gateway: { auth: { token: TOKEN }, http: { endpoints: { chatCompletions: { enabled: true } } } },
  agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: "fake/fake-model" } },
  models: { providers: { fake: { baseUrl: `http://${HOST}:${model.port}/v1`, apiKey: "sk-bench", api: "openai-completions" } } },
}));
const out = fs.openSync("/tmp/exp-soak.out", "w");
const flags = (process.env.FLAGS ?? "").split(" ").filter(Boolean);
const child = spawn(process.execPath, [...flags, "dist/bin/openclaw.js", "gateway", "run", "--port", String(port)], { env: { ...process.env, OPENCLAW_STATE_DIR: stateDir }, stdio: ["ignore", out, out] });
const rss = () => Number(fs.readFileSync(`/proc/${child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]) / 1024;
for (;;) { try { await chat(port, "w", "hi"); break; } catch { await sleep(5); } }
const N = Number(process.env.TURNS ?? 1000);
const SESSIONS = Number(process.env.SESSIONS ?? 10);
console.log("ready rss", rss().toFixed(1));
for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round++) {
  const t0 = now();
  await Promise.all(Array.from({ length: 10 }, async (_, s) => { for (let i = 0; i < N / 10; i++) await chat(port, `c-${(s + 10 * i) % SESSIONS}`, `m ${i}`); }));
  console.log(`after ${(round + 1) * N} turns: rss ${rss().toFixed(1)} MiB, ${(N / (now() - t0) * 1000).toFixed(0)} turns/s`);
  if (process.env.SNAP) { child.kill("SIGUSR2"); await sleep(Number(process.env.SNAPWAIT ?? 5000)); }
}
child.kill("SIGTERM"); await new Promise((r) => child.on("exit", r)); model.server.close(); chat.close();
