import type { OpenClawConfig } from "../../config/index.js";
import type { ChannelAccountConfig } from "./channel-accounts.js";

/** The config keys that give each channel's account its bot, for the fix a refusal names. */
const TOKEN_KEYS: Record<string, string> = { telegram: "botToken (or tokenFile)", discord: "token", slack: "botToken" };

/** Per channel that has one, the key of the credential whose events are split among its connections, and what opens them. */
const EVENT_STREAMS: Record<string, { key: string; connection: string; why: string; fix: string }> = {
  slack: {
    key: "appToken",
    connection: "the Slack app's Socket Mode connection",
    why: "Slack gives each of an app's events to one of its connections",
    fix: "the appToken of a Slack app of its own",
  },
};

/** A credential of an account, or undefined when it has none. */
type TokenOf = (spec: ChannelAccountConfig) => string | undefined;

/**
 * Which planned accounts would run a bot another account already runs, each with why. `tokenOf`
 * gives an account's resolved bot token (after its plugin reads `tokenFile` and the environment),
 * or undefined when it has none. Per channel, the accounts that are enabled, have no problem yet
 * and hold a token are taken in account-id order (`localeCompare`, as OpenClaw lists them): the
 * first with a token runs its bot, and every later one with the same token is refused, naming the
 * account that runs it. The problem never quotes the token. Keys are `<channel>|<accountId>`.
 */
export function duplicateBotProblems(config: OpenClawConfig, specs: readonly ChannelAccountConfig[], tokenOf: TokenOf): Map<string, string> {
  return laterHolders(specs, tokenOf, (spec, owner) => {
    const where = accountPath(config, spec);
    return `${where} has the same bot token as the account "${owner}", which runs that bot (two connections to one bot take each other's updates); give ${where} its own ${TOKEN_KEYS[spec.channel] ?? "token"}, or remove it`;
  });
}

/**
 * Which planned accounts would open an event connection on a credential another account already
 * opens one on (Slack Socket Mode's appToken, which `tokenOf` resolves), each with why: the
 * platform hands each event to one of the connections, so each account would miss events meant
 * for the other. The same order and rule as duplicateBotProblems (first by account id keeps it);
 * run it on specs that already carry the bot problems, so an account refused for its bot holds
 * no connection. The problem never quotes the token.
 */
export function duplicateEventStreamProblems(config: OpenClawConfig, specs: readonly ChannelAccountConfig[], tokenOf: TokenOf): Map<string, string> {
  return laterHolders(
    specs.filter((spec) => EVENT_STREAMS[spec.channel]),
    tokenOf,
    (spec, owner) => {
      const stream = EVENT_STREAMS[spec.channel]!;
      const where = accountPath(config, spec);
      return `${where} has the same ${stream.key} as the account "${owner}", which opens ${stream.connection} with it (${stream.why}, so each account would miss events meant for the other); give ${where} ${stream.fix}, or remove it`;
    },
  );
}

/**
 * Per channel, the enabled accounts without a problem that hold a credential, in account-id order:
 * the first holds it, every later one with the same credential gets `refuse(spec, owner)`.
 */
function laterHolders(specs: readonly ChannelAccountConfig[], tokenOf: TokenOf, refuse: (spec: ChannelAccountConfig, owner: string) => string): Map<string, string> {
  const problems = new Map<string, string>();
  const owners = new Map<string, string>();
  const candidates = specs.filter((s) => s.enabled && !s.problem).sort((a, b) => a.channel.localeCompare(b.channel) || a.accountId.localeCompare(b.accountId));
  for (const spec of candidates) {
    const token = tokenOf(spec);
    if (!token) continue;
    const tokenKey = `${spec.channel}|${token}`;
    const owner = owners.get(tokenKey);
    if (owner === undefined) owners.set(tokenKey, spec.accountId);
    else problems.set(`${spec.channel}|${spec.accountId}`, refuse(spec, owner));
  }
  return problems;
}

/** Where an account is written: `channels.<c>.accounts.<id>`, or `channels.<c>` for the top-level account. */
function accountPath(config: OpenClawConfig, spec: ChannelAccountConfig): string {
  const accounts = (config.channels?.[spec.channel] as { accounts?: Record<string, unknown> } | undefined)?.accounts ?? {};
  const named = Object.keys(accounts).some((id) => id.toLowerCase() === spec.accountId);
  return named ? `channels.${spec.channel}.accounts.${spec.accountId}` : `channels.${spec.channel}`;
}
