import fs from "node:fs";
import { expandUserPath } from "../../src/config/paths.js";
import type { CustomCommand } from "./command-menu.js";

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
  /** Extra entries of the bot's `/` menu (`customCommands`), as written. */
  customCommands: CustomCommand[];
}

export const POLLING_RETRY_MAX_MS = 30_000;
const DEFAULT_API_ROOT = "https://api.telegram.org";
const DEFAULT_WEBHOOK_PATH = "/telegram-webhook";
const TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]+$/;

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

// A token from the config file is checked by the schema; one from tokenFile or the environment is checked here.
function checkTokenShape(token: string, source: string): { token: string } | { problem: string } {
  if (TOKEN_SHAPE.test(token)) return { token };
  return { problem: `channels.telegram: ${source} does not look like a bot token from @BotFather (<digits>:<secret>)` };
}

/**
 * The non-token settings, with defaults. Their shapes (http(s) URLs, the webhook secret's
 * characters, a secret whenever a webhook URL is set, number ranges) are checked by the config
 * schema, so `openclaw config validate` reports them and a running account never meets them.
 */
export function readTelegramSettings(config: Config): TelegramSettings {
  const apiRoot = typeof config.apiRoot === "string" && config.apiRoot ? config.apiRoot : DEFAULT_API_ROOT;
  const settings: TelegramSettings = {
    apiRoot: apiRoot.replace(/\/+$/, ""),
    pollingTimeoutSeconds: typeof config.pollingTimeoutSeconds === "number" ? config.pollingTimeoutSeconds : 30,
    pollingRetryBaseMs: typeof config.pollingRetryBaseMs === "number" ? config.pollingRetryBaseMs : 2000,
    linkPreview: config.linkPreview !== false,
    customCommands: Array.isArray(config.customCommands) ? (config.customCommands as CustomCommand[]) : [],
  };
  if (typeof config.webhookUrl === "string" && config.webhookUrl) {
    const secret = typeof config.webhookSecret === "string" ? config.webhookSecret : "";
    const rawPath = typeof config.webhookPath === "string" && config.webhookPath.trim() ? config.webhookPath.trim() : DEFAULT_WEBHOOK_PATH;
    settings.webhook = { url: config.webhookUrl, secret, path: rawPath.startsWith("/") ? rawPath : `/${rawPath}` };
  }
  return settings;
}
