// `openclaw acp` start-up: from spawning the bridge (the IDE starting its agent) to the answer
// to `initialize`, the IDE's first request, written at once. The bridge connects to a running
// gateway before it serves, so the figure includes the gateway handshake.
import { spawn } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { CLI_ENTRY, freePort, HOST, makeTempDir, spawnGateway } from "./lib/spawn-gateway.mjs";
import { now, summarize, withTimeout } from "./lib/util.mjs";

const TOKEN = "bench-acp-bridge";
const RUNS = 10;
const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`;

/**
 * CPU time (user + system) a process has used so far, from /proc: on a machine busy with other
 * work the wall time mostly measures the wait for a core, the CPU time what the bridge costs.
 */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function startToInitialized(url) {
  const started = now();
  const child = spawn(process.execPath, [CLI_ENTRY, "acp", "--url", url], {
    env: { ...process.env, OPENCLAW_GATEWAY_TOKEN: TOKEN, OPENCLAW_STATE_DIR: makeTempDir("acp-bridge-cli") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.write(INITIALIZE);
  const answered = new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const message = JSON.parse(line);
      if (message.id === 1 && message.result) resolve({ wallMs: now() - started, cpuMs: cpuMsOf(child.pid) });
      else if (message.id === 1) reject(new Error(`initialize failed: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`openclaw acp exited (${code}) before answering initialize: ${stderr}`)));
  });
  return withTimeout(answered, 10_000, "acp bridge: spawn → initialize answered").finally(() => {
    child.stdin.end();
    child.kill("SIGTERM");
  });
}

/** The same two figures for a bare `node` that prints one line: what any process costs here. */
function bareNodeStart() {
  const started = now();
  const child = spawn(process.execPath, ["-e", "process.stdout.write('up\\n'); setInterval(() => {}, 1000)"], { stdio: ["ignore", "pipe", "ignore"] });
  const up = new Promise((resolve) => {
    readline.createInterface({ input: child.stdout }).once("line", () => resolve({ wallMs: now() - started, cpuMs: cpuMsOf(child.pid) }));
  });
  return withTimeout(up, 10_000, "bare node: spawn → first line").finally(() => child.kill("SIGKILL"));
}

export async function measureAcpBridge() {
  const port = await freePort();
  const gw = spawnGateway({ label: "acp-bridge", stateDir: makeTempDir("acp-bridge"), port, token: TOKEN });
  try {
    await gw.waitForReady(10_000, "acp bridge gateway: spawn → /readyz 200");
    const samples = [];
    for (let i = 0; i < RUNS; i += 1) samples.push(await startToInitialized(`ws://${HOST}:${port}`));
    const bare = [];
    for (let i = 0; i < 5; i += 1) bare.push(await bareNodeStart());
    const cpu = (list) => (list.every((s) => typeof s.cpuMs === "number") ? summarize(list.map((s) => s.cpuMs)) : undefined);
    return {
      runs: RUNS,
      spawnToInitializeMs: summarize(samples.map((s) => s.wallMs)),
      cpuToInitializeMs: cpu(samples),
      bareNode: { spawnToFirstLineMs: summarize(bare.map((s) => s.wallMs)), cpuMs: cpu(bare) },
    };
  } finally {
    await gw.dispose();
  }
}
