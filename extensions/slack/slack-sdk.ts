import { format } from "node:util";
import type { Logger as BoltLogger, LogLevel, webApi } from "@slack/bolt";
import type { Logger } from "../../src/infra/logger.js";
import { redactSecrets } from "./api-errors.js";

const importBolt = () => import("@slack/bolt");

/** The module as a dynamic import sees it (CommonJS, so with a `default` beside the named exports). */
export type SlackBolt = Awaited<ReturnType<typeof importBolt>>;
export type SlackWebClient = webApi.WebClient;

let boltModule: Promise<SlackBolt> | undefined;

/**
 * @slack/bolt drags in express, the OAuth installer and more, and is slow to load (see
 * docs/architecture.md, "Measured costs"): it is imported on first use, so checking the config of a Slack account that then does not start never loads it.
 */
export function loadBolt(): Promise<SlackBolt> {
  boltModule ??= importBolt();
  return boltModule;
}

/** How long one Web API request may take before delivery treats it as failed and retries. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Options for the clients that post messages. The delivery ledger owns retries, so the SDK must
 * not quietly retry for half an hour (its default) nor sleep through a 429: it fails at once and
 * `ChannelRateLimitError` carries Slack's Retry-After back to the ledger.
 */
export function deliveryClientOptions(slackApiUrl: string, logger: BoltLogger): webApi.WebClientOptions {
  return { slackApiUrl, logger, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, timeout: REQUEST_TIMEOUT_MS };
}

/**
 * Options for the Socket Mode client's own WebClient (`apps.connections.open`). Our reconnect loop
 * decides when to try again, so each attempt is a single request as well.
 */
export function socketClientOptions(slackApiUrl: string, logger: BoltLogger): webApi.WebClientOptions {
  return { slackApiUrl, logger, retryConfig: { retries: 0 }, timeout: REQUEST_TIMEOUT_MS };
}

/**
 * The Slack SDKs log through their own `Logger` interface; this forwards to the gateway's pino
 * logger (level set there, so `setLevel` is ignored) and scrubs our secrets from every line.
 */
export function createBoltLogger(logger: Logger, levels: typeof LogLevel, secrets: readonly string[]): BoltLogger {
  const line = (parts: unknown[]) => redactSecrets(format(...parts), secrets);
  return {
    debug: (...parts: unknown[]) => logger.debug(line(parts)),
    info: (...parts: unknown[]) => logger.info(line(parts)),
    warn: (...parts: unknown[]) => logger.warn(line(parts)),
    error: (...parts: unknown[]) => logger.error(line(parts)),
    setLevel: () => {},
    setName: () => {},
    getLevel: () => {
      if (logger.isLevelEnabled("debug")) return levels.DEBUG;
      if (logger.isLevelEnabled("info")) return levels.INFO;
      if (logger.isLevelEnabled("warn")) return levels.WARN;
      return levels.ERROR;
    },
  };
}
