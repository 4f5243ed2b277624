// spawnToPortOpenMs / spawnToReadyMs: cold spawns, each with a fresh temp state dir.
import fs from "node:fs";
import path from "node:path";
import { freePort, makeTempDir, removeTempDir, spawnBareListener, spawnGateway } from "./lib/spawn-gateway.mjs";
import { summarize } from "./lib/util.mjs";

export const CONFIG_TOKEN = "bench-token";

/** The benchmark's config file: loopback, token auth, one fake OpenAI-style model provider. */
export function benchConfig(dir, port) {
  return {
    gateway: {
      mode: "local",
      bind: "loopback",
      port,
      auth: { mode: "token", token: CONFIG_TOKEN },
      http: { endpoints: { chatCompletions: { enabled: true } } },
    },
    logging: { file: path.join(dir, "gateway.log") },
    agents: { defaults: { workspace: path.join(dir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: {
      mode: "merge",
      providers: {
        fake: {
          baseUrl: "http://127.0.0.1:18999/v1",
          apiKey: "sk-local",
          api: "openai-completions",
          models: [
            {
              id: "fake-model",
              name: "Fake Model",
              reasoning: false,
              input: ["text"],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 120000,
              maxTokens: 8192,
            },
          ],
        },
      },
    },
  };
}

/**
 * `runs` sequential cold starts. Without a config the token comes from OPENCLAW_GATEWAY_TOKEN;
 * with one, `openclaw.json` in the state dir supplies port and token. Each run: spawn, poll TCP
 * until the port accepts, poll /readyz until 200, then SIGTERM and wait for exit.
 */
export async function measureStartup({ withConfig, runs = 5, token, timeoutMs = 10_000 }) {
  const label = withConfig ? "startup-config" : "startup";
  const portOpen = [];
  const ready = [];
  const reported = [];
  const issues = [];
  for (let i = 1; i <= runs; i++) {
    const stateDir = makeTempDir(label);
    let gw;
    try {
      const port = await freePort();
      if (withConfig) {
        fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(benchConfig(stateDir, port), null, 2) + "\n");
      }
      gw = spawnGateway({ label: `${label}#${i}`, stateDir, port, token: withConfig ? undefined : token });
      portOpen.push(await gw.waitForPortOpen(timeoutMs));
      ready.push(await gw.waitForReady(timeoutMs));

      // Contract checks that do not fail the bench: the log line and the lock file name the port.
      const listening = await gw
        .waitForLogEntry("gateway listening", 3000, `${gw.label}: "gateway listening" log line`)
        .catch((err) => {
          gw.addIssue({ stream: "check", text: err.message });
          return undefined;
        });
      if (listening) {
        if (listening.port !== port) gw.addIssue({ stream: "check", text: `"gateway listening" says port ${listening.port}, expected ${port}` });
        if (typeof listening.startupMs === "number") reported.push(listening.startupMs);
      }
      const lock = gw.readLock();
      if (lock?.port !== port || lock?.pid !== gw.pid) {
        gw.addIssue({ stream: "check", text: `gateway.lock is ${JSON.stringify(lock)}; expected pid ${gw.pid}, port ${port}` });
      }

      await gw.stop();
    } finally {
      if (gw) {
        issues.push(...gw.issues);
        await gw.dispose();
      } else {
        removeTempDir(stateDir);
      }
    }
  }
  return {
    portOpenMs: summarize(portOpen),
    readyMs: summarize(ready),
    ...(reported.length ? { gatewayReportedStartupMs: summarize(reported) } : {}),
    issues,
  };
}

/**
 * Context for spawnToPortOpenMs: the same measurement against `node -e` that does nothing but
 * listen, i.e. what Node itself costs on this machine before any gateway code runs.
 */
export async function measureNodeBaseline({ runs = 5, timeoutMs = 10_000 }) {
  const portOpen = [];
  for (let i = 1; i <= runs; i++) {
    const proc = spawnBareListener({ label: `node-baseline#${i}`, port: await freePort() });
    try {
      portOpen.push(await proc.waitForPortOpen(timeoutMs));
    } finally {
      await proc.dispose();
    }
  }
  return summarize(portOpen);
}
