import { accountIds, type ChannelBlock } from "./channel-account-references.js";
import { formatKeyPath } from "./key-path.js";
import { CHANNEL_IDS } from "./schema/channels.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * Bindings that load but never match, each with a warning saying so: one for a channel this
 * gateway does not have (OpenClaw configs carry whatsapp, signal …), and one without `accountId`
 * (which matches only the account named `default`) on a channel that has no such account.
 */
export function bindingWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  const channels = (config.channels ?? {}) as Record<string, ChannelBlock>;
  config.bindings?.forEach((binding, index) => {
    const channel = binding.match.channel;
    const id = channel.trim().toLowerCase();
    if (!CHANNEL_IDS.includes(id)) {
      const path = formatKeyPath(["bindings", index, "match", "channel"]);
      warnings.push(`${path}: "${channel}" is not a channel of this gateway (${CHANNEL_IDS.join(", ")}), so this binding never matches`);
      return;
    }
    const block = Object.hasOwn(channels, id) ? channels[id] : undefined;
    if (!block || binding.match.accountId !== undefined) return;
    const accounts = accountIds(id, block);
    if (accounts.includes("default")) return;
    const path = formatKeyPath(["bindings", index, "match", "accountId"]);
    warnings.push(
      `${path} is not set, so this binding matches only the account "default", which ${formatKeyPath(["channels", id])} does not have (its accounts: ${accounts.join(", ")}); name the account, or "*" for every account`,
    );
  });
  return warnings;
}
