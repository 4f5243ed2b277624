import type { OpenClawConfig } from "../../config/index.js";
import type { ChannelAccountConfig } from "./channel-accounts.js";

/** The config keys that give each channel's account its bot, for the fix a refusal names. */
const TOKEN_KEYS: Record<string, string> = { telegram: "botToken (or tokenFile)", discord: "token", slack: "botToken" };

/**
 * Which planned accounts would run a bot another account already runs, each with why. `tokenOf`
 * gives an account's resolved bot token (after its plugin reads `tokenFile` and the environment),
 * or undefined when it has none. Per channel, the accounts that are enabled, have no problem yet
 * and hold a token are taken in account-id order (`localeCompare`, as OpenClaw lists them): the
 * first with a token runs its bot, and every later one with the same token is refused, naming the
 * account that runs it. The problem never quotes the token. Keys are `<channel>|<accountId>`.
 */
export function duplicateBotProblems(
  config: OpenClawConfig,
  specs: readonly ChannelAccountConfig[],
  tokenOf: (spec: ChannelAccountConfig) => string | undefined,
): Map<string, string> {
  const problems = new Map<string, string>();
  const owners = new Map<string, string>();
  const candidates = specs.filter((s) => s.enabled && !s.problem).sort((a, b) => a.channel.localeCompare(b.channel) || a.accountId.localeCompare(b.accountId));
  for (const spec of candidates) {
    const token = tokenOf(spec);
    if (!token) continue;
    const tokenKey = `${spec.channel}|${token}`;
    const owner = owners.get(tokenKey);
    if (owner === undefined) {
      owners.set(tokenKey, spec.accountId);
      continue;
    }
    const where = accountPath(config, spec);
    problems.set(
      `${spec.channel}|${spec.accountId}`,
      `${where} has the same bot token as the account "${owner}", which runs that bot (two connections to one bot take each other's updates); give ${where} its own ${TOKEN_KEYS[spec.channel] ?? "token"}, or remove it`,
    );
  }
  return problems;
}

/** Where an account is written: `channels.<c>.accounts.<id>`, or `channels.<c>` for the top-level account. */
function accountPath(config: OpenClawConfig, spec: ChannelAccountConfig): string {
  const accounts = (config.channels?.[spec.channel] as { accounts?: Record<string, unknown> } | undefined)?.accounts ?? {};
  const named = Object.keys(accounts).some((id) => id.toLowerCase() === spec.accountId);
  return named ? `channels.${spec.channel}.accounts.${spec.accountId}` : `channels.${spec.channel}`;
}
