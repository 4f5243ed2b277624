// spawnToPortOpenMs / spawnToReadyMs: cold spawns, each with a fresh temp state dir.
import fs from "node:fs";
import path from "node:path";
import { benchConfig } from "./lib/bench-config.mjs";
import { freePort, makeTempDir, removeTempDir, spawnBareListener, spawnGateway } from "./lib/spawn-gateway.mjs";
import { summarize } from "./lib/util.mjs";

/** Timing fields the gateway itself may put on its "gateway listening" log line. */
const REPORTED_FIELDS = ["portOpenMs", "readyMs", "startupMs"];

/**
 * `runs` cold starts with and without a config file, interleaved so that background load
 * drifts affect both alike. Without a config the token comes from OPENCLAW_GATEWAY_TOKEN; with
 * one, `openclaw.json` in the state dir supplies it. Each run: spawn, poll TCP until the port
 * accepts, poll /readyz until 200, then SIGTERM and wait for exit.
 */
export async function measureStartup({ runs = 5, token, timeoutMs = 10_000 }) {
  const modes = {
    noConfig: { portOpen: [], ready: [], reported: {} },
    withConfig: { portOpen: [], ready: [], reported: {} },
  };
  for (let i = 1; i <= runs; i++) {
    for (const mode of i % 2 ? ["noConfig", "withConfig"] : ["withConfig", "noConfig"]) {
      const withConfig = mode === "withConfig";
      const label = `${withConfig ? "startup-config" : "startup"}#${i}`;
      const m = modes[mode];
      const stateDir = makeTempDir(withConfig ? "startup-config" : "startup");
      let gw;
      try {
        const port = await freePort();
        if (withConfig) {
          fs.writeFileSync(path.join(stateDir, "openclaw.json"), `${JSON.stringify(benchConfig(stateDir, port), null, 2)}\n`);
        }
        gw = spawnGateway({ label, stateDir, port, token: withConfig ? undefined : token });
        m.portOpen.push(await gw.waitForPortOpen(timeoutMs));
        m.ready.push(await gw.waitForReady(timeoutMs));
        await checkStartedGateway(gw, port, m.reported);
        await gw.stop();
      } finally {
        if (gw) await gw.dispose();
        else removeTempDir(stateDir);
      }
    }
  }
  const result = (m) => ({
    portOpenMs: summarize(m.portOpen),
    readyMs: summarize(m.ready),
    gatewayReported: Object.fromEntries(Object.entries(m.reported).map(([k, v]) => [k, summarize(v)])),
  });
  return { noConfig: result(modes.noConfig), withConfig: result(modes.withConfig) };
}

/**
 * Contract checks that do not fail the bench (they become gatewayIssues): the "gateway
 * listening" log line and the lock file both name the bound port. Collects the timing fields
 * the log line carries.
 */
async function checkStartedGateway(gw, port, reported) {
  const listening = await gw.waitForLogEntry("gateway listening", 3000, `${gw.label}: "gateway listening" log line`).catch((err) => {
    gw.addIssue({ stream: "check", text: err.message });
    return undefined;
  });
  if (listening) {
    if (listening.port !== port) gw.addIssue({ stream: "check", text: `"gateway listening" says port ${listening.port}, expected ${port}` });
    for (const field of REPORTED_FIELDS) {
      if (typeof listening[field] === "number") (reported[field] ??= []).push(listening[field]);
    }
  }
  const lock = gw.readLock();
  if (lock?.port !== port || lock?.pid !== gw.pid) {
    gw.addIssue({ stream: "check", text: `gateway.lock is ${JSON.stringify(lock)}; expected pid ${gw.pid}, port ${port}` });
  }
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
