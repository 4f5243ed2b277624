import { botTokenKey, channelAccountIds, sharedBotProblems, writtenBotToken } from "./channel-account-ids.js";
import { isPlainObject } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";
import { channelEntries } from "./channel-blocks.js";

/**
 * `channels.<c>.defaultAccount` naming an account the config alone shows will not run, each as a
 * warning with why and the fix: a disabled one, one with no token of its own that would run the
 * top-level bot another account runs (sharedBotProblems), or one whose written bot token equals
 * an enabled account's before it by id (the gateway runs the first). Sends that name no account
 * would fail on it. A disabled channel is left alone (nothing sends through it), and so is a
 * `defaultAccount` that names no account (checkChannelAccountReferences refuses it). The
 * gateway's plan, which also reads token files and the environment, decides at start; no
 * warning quotes a token.
 */
export function defaultAccountWarnings(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  for (const [channel, raw] of channelEntries(config.channels as Record<string, unknown> | undefined)) {
    const block = raw as Record<string, unknown> | undefined;
    if (!block || typeof block.defaultAccount !== "string" || block.enabled === false) continue;
    const named = block.defaultAccount.toLowerCase();
    const ids = channelAccountIds(channel, block, env);
    if (!ids.includes(named)) continue;
    const why = whyNotRunning(channel, block, ids, named);
    if (why === undefined) continue;
    warnings.push(
      `channels.${channel}.defaultAccount names "${named}", which will not run: ${why}; a send, agent turn or cron announcement that names no account would fail on it: point defaultAccount at an account that runs, or fix that account`,
    );
  }
  return warnings;
}

function whyNotRunning(channel: string, block: Record<string, unknown>, ids: string[], named: string): string | undefined {
  const accounts = isPlainObject(block.accounts) ? block.accounts : {};
  const own = new Map(Object.entries(accounts).map(([id, account]) => [id.toLowerCase(), isPlainObject(account) ? account : {}]));
  if (own.get(named)?.enabled === false) return "it is disabled (enabled: false)";
  const shared = sharedBotProblems(channel, block, ids, own);
  const inherited = shared.get(named);
  if (inherited) return inherited;
  const tokenOf = (id: string) => writtenBotToken(channel, block, own.get(id));
  const token = tokenOf(named);
  if (token === undefined) return undefined;
  const owner = ids.find((id) => id.localeCompare(named) < 0 && own.get(id)?.enabled !== false && !shared.has(id) && tokenOf(id) === token);
  if (owner === undefined) return undefined;
  const where = own.has(named) ? `channels.${channel}.accounts.${named}` : `channels.${channel}`;
  return `${where} has the same ${botTokenKey(channel)} as the account "${owner}", which runs that bot`;
}
