import { channelAccountIds } from "./channel-account-ids.js";
import type { ConfigIssue } from "./errors.js";
import { formatKeyPath } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";
import { channelEntries } from "./channel-blocks.js";

export type ChannelBlock = NonNullable<NonNullable<RawOpenClawConfig["channels"]>["telegram" | "discord" | "slack"]>;

/** A channel block's account ids, lower-cased, as the gateway runs them (see channelAccountIds). */
export function accountIds(channel: string, block: NonNullable<ChannelBlock>): string[] {
  return channelAccountIds(channel, block as Record<string, unknown>);
}

/**
 * Keys that name a channel account must name one the channel has: `channels.<c>.defaultAccount`
 * (a typo would fall back to another account without a word) and a binding's `match.accountId`
 * (`"*"` is every account; a typo would make the binding never match).
 */
export function checkChannelAccountReferences(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const channels = (config.channels ?? {}) as Record<string, ChannelBlock>;
  for (const [channel, block] of channelEntries(channels)) {
    const named = block?.defaultAccount;
    if (!block || named === undefined) continue;
    const accounts = accountIds(channel, block);
    if (accounts.includes(named.toLowerCase())) continue;
    issues.push({
      path: formatKeyPath(["channels", channel, "defaultAccount"]),
      message: `no account "${named}" in ${formatKeyPath(["channels", channel, "accounts"])} (its accounts: ${accounts.join(", ")})`,
    });
  }
  config.bindings?.forEach((binding, index) => {
    const { channel, accountId } = binding.match;
    const block = Object.hasOwn(channels, channel.trim().toLowerCase()) ? channels[channel.trim().toLowerCase()] : undefined;
    if (!block || accountId === undefined || accountId.trim() === "*") return;
    const accounts = accountIds(channel.trim().toLowerCase(), block);
    if (accounts.includes(accountId.trim().toLowerCase())) return;
    issues.push({
      path: formatKeyPath(["bindings", index, "match", "accountId"]),
      message: `no account "${accountId}" in ${formatKeyPath(["channels", channel.trim().toLowerCase()])} (its accounts: ${accounts.join(", ")}; "*" is every account)`,
    });
  });
  return issues;
}
