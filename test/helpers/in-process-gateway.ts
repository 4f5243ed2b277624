import fs from "node:fs";
import path from "node:path";
import type { CronClock } from "../../src/cron/clock.js";
import { runGateway, type RunningGateway } from "../../src/gateway/run-gateway.js";
import { cleanEnv } from "./gateway-process.js";

export interface InProcessGateway {
  gateway: RunningGateway;
  stateDir: string;
  token: string;
  url: string;
  httpUrl: string;
  /** The environment a CLI process needs to reach this gateway. */
  cliEnv: Record<string, string>;
  /** The gateway's log so far (it writes to `<state>/logs`). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The gateway inside the test process, for what a child process cannot give a test: the
 * scheduler's clock, advanced by hand. Everything else is the real gateway on a real port.
 */
export async function startInProcessGateway(opts: { stateDir: string; config: string; cronClock: CronClock }): Promise<InProcessGateway> {
  fs.writeFileSync(path.join(opts.stateDir, "openclaw.json"), opts.config);
  const token = `test-token-${Math.random().toString(36).slice(2)}`;
  const env = cleanEnv({ OPENCLAW_STATE_DIR: opts.stateDir, OPENCLAW_GATEWAY_TOKEN: token });
  const gateway = await runGateway({ env, port: 0, console: false, notice: () => {}, logLevel: "debug", cronClock: opts.cronClock });
  const logFile = path.join(opts.stateDir, "logs", "gateway.log");
  return {
    gateway,
    stateDir: opts.stateDir,
    token,
    url: `ws://127.0.0.1:${gateway.port}`,
    httpUrl: `http://127.0.0.1:${gateway.port}`,
    cliEnv: { OPENCLAW_STATE_DIR: opts.stateDir, OPENCLAW_GATEWAY_TOKEN: token, OPENCLAW_GATEWAY_PORT: String(gateway.port) },
    log: () => {
      try {
        return fs.readFileSync(logFile, "utf8");
      } catch {
        return "";
      }
    },
    stop: () => gateway.stop("test finished"),
  };
}
