import fs from "node:fs";
import { expandUserPath } from "../../src/config/paths.js";

/** An account's Telegram settings, read from its merged config block. */
export interface TelegramSettings {
  /** Without a trailing slash (grammY refuses one). */
  apiRoot: string;
  /** Set when updates arrive by webhook; polling does not run then. */
  webhook?: { url: string; secret: string; path: string };
  pollingTimeoutSeconds: number;
  /** First wait after a polling error; doubles per consecutive error up to `POLLING_RETRY_MAX_MS`. */
  pollingRetryBaseMs: number;
  linkPreview: boolean;
}

export const POLLING_RETRY_MAX_MS = 30_000;
const DEFAULT_API_ROOT = "https://api.telegram.org";
const DEFAULT_WEBHOOK_PATH = "/telegram-webhook";
const TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]+$/;
/** Telegram's own rule for `secret_token`. */
const WEBHOOK_SECRET_SHAPE = /^[A-Za-z0-9_-]{1,256}$/;

type Config = Readonly<Record<string, unknown>>;

/**
 * The bot token: `tokenFile` > `botToken` > `TELEGRAM_BOT_TOKEN`. The environment variable only
 * serves the `default` account, so a second account never silently borrows the first one's bot.
 * Problems never quote the token.
 */
export function resolveBotToken(config: Config, env: NodeJS.ProcessEnv, accountId: string): { token: string } | { problem: string } {
  const tokenFile = config.tokenFile;
  if (typeof tokenFile === "string" && tokenFile.trim()) {
    const file = expandUserPath(tokenFile.trim(), env);
    let token: string;
    try {
      token = fs.readFileSync(file, "utf8").trim();
    } catch (error) {
      return { problem: `channels.telegram: tokenFile ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
    }
    if (!token) return { problem: `channels.telegram: tokenFile ${file} is empty` };
    return checkTokenShape(token, `tokenFile ${file}`);
  }
  if (typeof config.botToken === "string" && config.botToken.trim()) return checkTokenShape(config.botToken.trim(), "botToken");
  const fromEnv = env.TELEGRAM_BOT_TOKEN?.trim();
  if (fromEnv && accountId === "default") return checkTokenShape(fromEnv, "TELEGRAM_BOT_TOKEN");
  const envNote = fromEnv ? `; TELEGRAM_BOT_TOKEN only serves the default account, not "${accountId}"` : "";
  return { problem: `channels.telegram: no bot token (set botToken, tokenFile or TELEGRAM_BOT_TOKEN)${envNote}` };
}

function checkTokenShape(token: string, source: string): { token: string } | { problem: string } {
  if (TOKEN_SHAPE.test(token)) return { token };
  return { problem: `channels.telegram: ${source} does not look like a bot token from @BotFather (<digits>:<secret>)` };
}

/** The non-token settings, with defaults, plus a message for every value that cannot work. */
export function readTelegramSettings(config: Config): { settings: TelegramSettings; problems: string[] } {
  const problems: string[] = [];
  const apiRoot = readUrl(config, "apiRoot", problems) ?? DEFAULT_API_ROOT;
  const webhookUrl = readUrl(config, "webhookUrl", problems);
  const settings: TelegramSettings = {
    apiRoot: apiRoot.replace(/\/+$/, ""),
    pollingTimeoutSeconds: readNumber(config, "pollingTimeoutSeconds", 30, problems),
    pollingRetryBaseMs: readNumber(config, "pollingRetryBaseMs", 2000, problems),
    linkPreview: config.linkPreview !== false,
  };
  if (webhookUrl !== undefined) {
    const secret = typeof config.webhookSecret === "string" ? config.webhookSecret : "";
    if (!secret) {
      problems.push("channels.telegram: webhookUrl needs webhookSecret (Telegram echoes it in X-Telegram-Bot-Api-Secret-Token, which is how forged updates are refused)");
    } else if (!WEBHOOK_SECRET_SHAPE.test(secret)) {
      problems.push("channels.telegram: webhookSecret must be 1-256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)");
    }
    const rawPath = typeof config.webhookPath === "string" && config.webhookPath.trim() ? config.webhookPath.trim() : DEFAULT_WEBHOOK_PATH;
    settings.webhook = { url: webhookUrl, secret, path: rawPath.startsWith("/") ? rawPath : `/${rawPath}` };
  }
  return { settings, problems };
}

function readUrl(config: Config, key: string, problems: string[]): string | undefined {
  const value = config[key];
  if (value === undefined || value === "") return undefined;
  if (typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value;
  problems.push(`channels.telegram: ${key} must be an http(s) URL`);
  return undefined;
}

function readNumber(config: Config, key: string, fallback: number, problems: string[]): number {
  const value = config[key];
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  problems.push(`channels.telegram: ${key} must be a non-negative number`);
  return fallback;
}
