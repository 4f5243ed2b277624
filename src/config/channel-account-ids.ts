import { isPlainObject } from "./key-path.js";

/** A config or environment value that counts as set: a non-blank string, or any other value but null. */
function isSet(value: unknown): boolean {
  return typeof value === "string" ? value.trim().length > 0 : value !== undefined && value !== null;
}

/**
 * Whether a channel block's top level is an account of its own, `default`, beside its `accounts`:
 * it holds the channel's own credentials. Telegram: `botToken` or `tokenFile` (or
 * `TELEGRAM_BOT_TOKEN`); Discord: `token` (or `DISCORD_BOT_TOKEN`); Slack: a bot token
 * (`botToken` / `SLACK_BOT_TOKEN`) with, in `mode: http`, `signingSecret`, else an app token
 * (`appToken` / `SLACK_APP_TOKEN`). The environment variables only ever feed that `default` account.
 */
export function hasTopLevelAccount(channel: string, block: Record<string, unknown>, env: NodeJS.ProcessEnv): boolean {
  switch (channel) {
    case "telegram":
      return isSet(block.botToken) || isSet(block.tokenFile) || isSet(env.TELEGRAM_BOT_TOKEN);
    case "discord":
      return isSet(block.token) || isSet(env.DISCORD_BOT_TOKEN);
    case "slack": {
      if (!isSet(block.botToken) && !isSet(env.SLACK_BOT_TOKEN)) return false;
      return block.mode === "http" ? isSet(block.signingSecret) : isSet(block.appToken) || isSet(env.SLACK_APP_TOKEN);
    }
    default:
      return false;
  }
}

/**
 * A channel block's account ids, lower-cased, as the gateway runs them, sorted by id
 * (`localeCompare`, as OpenClaw lists them; the order decides the "first account" a send falls
 * back to): without `accounts` the block is the one `default` account; with them, each `accounts`
 * key, and `default` too when the block's top level holds its own credentials (hasTopLevelAccount)
 * and no `accounts.default` exists. The named accounts still inherit the top-level keys they do not set.
 */
export function channelAccountIds(channel: string, block: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): string[] {
  const named = isPlainObject(block.accounts) ? Object.keys(block.accounts).map((id) => id.toLowerCase()) : [];
  if (named.length === 0) return ["default"];
  const ids = named.includes("default") || !hasTopLevelAccount(channel, block, env) ? named : ["default", ...named];
  return ids.sort((a, b) => a.localeCompare(b));
}

/** The keys that give a channel account its own bot: an account without any inherits the block's. */
const CREDENTIAL_KEYS: Record<string, string[]> = { telegram: ["botToken", "tokenFile"], discord: ["token"], slack: ["botToken"] };

/** The key an account's bot token is written under: `botToken`, Discord's `token`. */
export function botTokenKey(channel: string): string | undefined {
  return CREDENTIAL_KEYS[channel]?.[0];
}

/**
 * An account's bot token as written in the file: its own when it sets any of the channel's
 * credential keys, else the block's top-level one; undefined when the file writes none (a
 * `tokenFile` or the environment is left to the gateway's plan).
 */
export function writtenBotToken(channel: string, block: Record<string, unknown>, account: Record<string, unknown> | undefined): string | undefined {
  const keys = CREDENTIAL_KEYS[channel];
  if (!keys) return undefined;
  const value = (account && keys.some((key) => isSet(account[key])) ? account : block)[keys[0]!];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * The accounts that would connect the block's top-level bot a second time, each with why: all
 * those that set none of the channel's credential keys inherit the top-level one (the `default`
 * account in the block's place among them), and only `default`, else the first in `ids` (by id), runs it.
 */
export function sharedBotProblems(channel: string, block: Record<string, unknown>, ids: string[], own: ReadonlyMap<string, Record<string, unknown>>): Map<string, string> {
  const problems = new Map<string, string>();
  const keys = CREDENTIAL_KEYS[channel];
  if (!keys?.some((key) => isSet(block[key]))) return problems;
  const inheriting = ids.filter((id) => !keys.some((key) => isSet(own.get(id)?.[key])));
  const owner = inheriting.includes("default") ? "default" : inheriting[0];
  const names = keys.join(" or ");
  for (const id of inheriting) {
    if (id === owner) continue;
    problems.set(
      id,
      `channels.${channel}.accounts.${id} sets no ${names}, so it would run the same bot as the account "${owner}" (the top-level ${names}); give it its own ${names}`,
    );
  }
  return problems;
}
