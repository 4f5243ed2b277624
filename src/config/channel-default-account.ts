import type { ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * `channels.<c>.defaultAccount` must name one of the channel's accounts (lower-cased ids; the
 * block alone is the account `default`): a typo would otherwise fall back to another account
 * without a word.
 */
export function checkDefaultAccounts(config: RawOpenClawConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [channel, block] of Object.entries(config.channels ?? {})) {
    const named = block?.defaultAccount;
    if (named === undefined) continue;
    const accounts = isPlainObject(block.accounts) && Object.keys(block.accounts).length > 0 ? Object.keys(block.accounts).map((id) => id.toLowerCase()) : ["default"];
    if (accounts.includes(named.toLowerCase())) continue;
    issues.push({
      path: formatKeyPath(["channels", channel, "defaultAccount"]),
      message: `no account "${named}" in ${formatKeyPath(["channels", channel, "accounts"])} (its accounts: ${accounts.join(", ")})`,
    });
  }
  return issues;
}
