/** The Discord account's settings, read from its merged config block (`channels.discord` + `accounts.<id>`). */
export interface DiscordSettings {
  token: string;
  /** discord.js `rest.api` (e.g. `https://discord.com/api`); undefined = Discord's own. */
  restApiUrl?: string;
  /** Ask for the privileged Message Content intent; without it guild message text arrives empty. */
  messageContentIntent: boolean;
  /** Send with `SuppressEmbeds` so links in replies do not unfurl. */
  suppressEmbeds: boolean;
  /** How long the client may stay not-READY before it is destroyed and built again. */
  reconnectWatchdogMs: number;
  /** Cap of the doubling delay between client rebuilds. */
  reconnectBackoffMaxMs: number;
}

export const MISSING_TOKEN = "channels.discord: no bot token (set token or DISCORD_BOT_TOKEN)";

const DEFAULT_WATCHDOG_MS = 60_000;
const DEFAULT_BACKOFF_MAX_MS = 30_000;

/**
 * `token`, else `DISCORD_BOT_TOKEN` — the environment variable only speaks for the default
 * account. `accountId` undefined means "cannot tell" (the config check has no account id) and
 * lets the variable count.
 */
export function resolveDiscordToken(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId?: string): string | undefined {
  const configured = typeof config.token === "string" ? config.token.trim() : "";
  if (configured) return configured;
  if (accountId !== undefined && accountId !== "default") return undefined;
  return env.DISCORD_BOT_TOKEN?.trim() || undefined;
}

/** Settings with defaults filled in, or every reason the block cannot run an account. */
export type DiscordSettingsResult = { ok: true; settings: DiscordSettings } | { ok: false; problems: string[] };

export function readDiscordSettings(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, accountId: string): DiscordSettingsResult {
  const token = resolveDiscordToken(config, env, accountId);
  // The other keys' shapes (an http(s) restApiUrl, integer milliseconds) are checked by the config schema.
  if (!token) return { ok: false, problems: [MISSING_TOKEN] };
  const intents = config.intents as { messageContent?: boolean } | undefined;
  return {
    ok: true,
    settings: {
      token,
      restApiUrl: config.restApiUrl as string | undefined,
      messageContentIntent: intents?.messageContent ?? true,
      suppressEmbeds: (config.suppressEmbeds as boolean | undefined) ?? true,
      reconnectWatchdogMs: (config.reconnectWatchdogMs as number | undefined) ?? DEFAULT_WATCHDOG_MS,
      reconnectBackoffMaxMs: (config.reconnectBackoffMaxMs as number | undefined) ?? DEFAULT_BACKOFF_MAX_MS,
    },
  };
}

function _isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
