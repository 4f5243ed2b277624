import { readMentionAliases, type MentionAliases } from "./mention-aliases.js";

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
  /** The bot's presence, sent when it identifies; undefined: Discord's default (online, no activity). */
  presence?: DiscordPresence;
  /** `mentionAliases`: `@Handle` in outbound text becomes a mention of that user. */
  mentionAliases: MentionAliases;
  /** `agentComponents.ttlMs`: how long after its message was sent a press of the agent's buttons still reaches it. */
  agentButtonsTtlMs: number;
}

/** What discord.js sends in IDENTIFY as the bot's presence. */
export interface DiscordPresence {
  status?: "online" | "idle" | "dnd" | "invisible";
  activities?: { name: string; type: number; state?: string; url?: string }[];
}

/** Discord's activity types: 0 Playing, 1 Streaming, 2 Listening, 3 Watching, 4 Custom, 5 Competing. */
const STREAMING = 1;
const CUSTOM = 4;

export const MISSING_TOKEN = "channels.discord: no bot token (set token or DISCORD_BOT_TOKEN)";

const DEFAULT_WATCHDOG_MS = 60_000;
const DEFAULT_BACKOFF_MAX_MS = 30_000;
/** OpenClaw's default lifetime of the agent's component callbacks. */
const DEFAULT_AGENT_BUTTONS_TTL_MS = 30 * 60_000;

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
  const presence = readPresence(config);
  if ("problem" in presence) return { ok: false, problems: [presence.problem] };
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
      ...(presence.presence ? { presence: presence.presence } : {}),
      mentionAliases: readMentionAliases(config.mentionAliases),
      agentButtonsTtlMs: (config.agentComponents as { ttlMs?: number } | undefined)?.ttlMs ?? DEFAULT_AGENT_BUTTONS_TTL_MS,
    },
  };
}

/**
 * `status`, `activity`, `activityType` (default 4, a custom status: the text is its state) and
 * `activityUrl` (Streaming only, and Streaming needs one), as OpenClaw reads them.
 */
export function readPresence(config: Readonly<Record<string, unknown>>): { presence?: DiscordPresence } | { problem: string } {
  const status = config.status as DiscordPresence["status"] | undefined;
  const text = config.activity as string | undefined;
  const type = (config.activityType as number | undefined) ?? CUSTOM;
  const url = config.activityUrl as string | undefined;
  if (url !== undefined && type !== STREAMING) return { problem: "channels.discord.activityUrl is for a Streaming activity: set activityType: 1, or remove activityUrl" };
  if (type === STREAMING && text !== undefined && url === undefined) return { problem: "channels.discord.activityType 1 (Streaming) needs activityUrl (the stream's URL)" };
  if (text === undefined && (config.activityType !== undefined || url !== undefined))
    return { problem: "channels.discord.activityType and activityUrl describe an activity: set activity (its text) too" };
  if (status === undefined && text === undefined) return {};
  const activity = text === undefined ? undefined : type === CUSTOM ? { name: "Custom Status", type, state: text } : { name: text, type, ...(url ? { url } : {}) };
  return { presence: { ...(status ? { status } : {}), ...(activity ? { activities: [activity] } : {}) } };
}

function _isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
