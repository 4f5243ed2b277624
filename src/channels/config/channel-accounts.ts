import { channelAccountIds, sharedBotProblems } from "../../config/channel-account-ids.js";
import type { OpenClawConfig } from "../../config/index.js";

export const CHANNEL_IDS = ["telegram", "discord", "slack"] as const;
export type ChannelId = (typeof CHANNEL_IDS)[number];

/** True when any channel block is present: the gateway then loads and builds its channel manager at all. */
export function anyChannelConfigured(config: OpenClawConfig): boolean {
  return CHANNEL_IDS.some((c) => config.channels?.[c] !== undefined);
}

export interface ChannelAccountConfig {
  channel: ChannelId;
  accountId: string;
  enabled: boolean;
  /** The channel block's keys overlaid with the account block's. */
  config: Record<string, unknown>;
  /**
   * Set when the account cannot start: it would run the same bot as another account, by
   * inheriting the top-level token (sharedBotProblems) or by resolving to the same token as an
   * earlier account (duplicateBotProblems, which the channel manager applies when it plans).
   */
  problem?: string;
}

/**
 * The accounts a channel block describes (the ids channelAccountIds lists). Without `accounts`,
 * the block itself is the one `default` account; with them, each entry is an account whose keys
 * override the block's (so shared settings such as `dmPolicy` are written once), and a block
 * whose top level holds the channel's own credentials is also the `default` account itself.
 * A block is enabled unless `enabled: false` says otherwise, at channel or account level.
 */
export function resolveChannelAccounts(config: OpenClawConfig, channel: ChannelId, env: NodeJS.ProcessEnv = process.env): ChannelAccountConfig[] {
  const block = config.channels?.[channel] as (Record<string, unknown> & { accounts?: Record<string, Record<string, unknown>> }) | undefined;
  if (!block) return [];
  const { accounts, defaultAccount: _defaultAccount, ...ownKeys } = block;
  // `channels.defaults.groupPolicy` is the policy of a channel that sets none.
  const fallbackPolicy = config.channels?.defaults?.groupPolicy;
  const shared = ownKeys.groupPolicy === undefined && fallbackPolicy ? { ...ownKeys, groupPolicy: fallbackPolicy } : ownKeys;
  const channelEnabled = shared.enabled !== false;
  const own = new Map(Object.entries(accounts ?? {}).map(([id, account]) => [id.toLowerCase(), account]));
  const ids = channelAccountIds(channel, block, env);
  const problems = sharedBotProblems(channel, block, ids, own);
  return ids.map((accountId) => {
    const account = own.get(accountId);
    const problem = problems.get(accountId);
    if (!account) return { channel, accountId, enabled: channelEnabled, config: shared };
    return { channel, accountId, enabled: channelEnabled && account.enabled !== false, config: { ...shared, ...account }, ...(problem ? { problem } : {}) };
  });
}

/** `channels.<c>.defaultAccount`, else `default` when it exists, else the first account by id (as OpenClaw resolves it). */
export function defaultAccountId(config: OpenClawConfig, channel: ChannelId): string | undefined {
  const accounts = resolveChannelAccounts(config, channel);
  const named = (config.channels?.[channel] as { defaultAccount?: string } | undefined)?.defaultAccount?.toLowerCase();
  if (named && accounts.some((a) => a.accountId === named)) return named;
  return accounts.find((a) => a.accountId === "default")?.accountId ?? accounts[0]?.accountId;
}

/**
 * For a send that named no account and met a default account that cannot run: which rule chose
 * that account, and how to choose another.
 */
export function unnamedAccountFix(config: OpenClawConfig, channel: ChannelId): string {
  const configured = (config.channels?.[channel] as { defaultAccount?: string } | undefined)?.defaultAccount !== undefined;
  const chosen = configured ? `channels.${channel}.defaultAccount names it` : `it is the channel's default account (channels.${channel}.defaultAccount is not set)`;
  return `no account was named and ${chosen}: name an account that runs (accountId), or set channels.${channel}.defaultAccount to one`;
}

export function isChannelId(value: string): value is ChannelId {
  return (CHANNEL_IDS as readonly string[]).includes(value);
}
