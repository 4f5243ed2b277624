import type { Binding } from "../../channels/routing/resolve-agent-route.js";
import { CHANNEL_IDS, isChannelId } from "../../channels/config/channel-accounts.js";
import type { OpenClawConfig } from "../../config/index.js";
import { CliError } from "../output.js";

/**
 * `--bind <channel[:accountId]>` values as route bindings of `agentId`, as OpenClaw reads them:
 * `telegram:*` every account of the channel, `telegram:ops` the account `ops`, bare `telegram`
 * the account named `default` (stored without `accountId`, which means that account). A channel
 * this gateway does not have is refused, every bad value named at once; an account the channel
 * does not have is refused by the config's validation when the result is saved.
 */
export function parseBindSpecs(specs: readonly string[], agentId: string): Binding[] {
  const errors: string[] = [];
  const bindings: Binding[] = [];
  for (const spec of specs) {
    const trimmed = spec.trim();
    const colon = trimmed.indexOf(":");
    const channel = (colon < 0 ? trimmed : trimmed.slice(0, colon)).trim().toLowerCase();
    const accountId = colon < 0 ? undefined : trimmed.slice(colon + 1).trim();
    if (!isChannelId(channel)) {
      errors.push(`--bind ${JSON.stringify(spec)}: unknown channel "${channel}" (this gateway's channels: ${CHANNEL_IDS.join(", ")})`);
    } else if (accountId === "") {
      errors.push(
        `--bind ${JSON.stringify(spec)}: no account after ":" (${channel}:<accountId> for one account, ${channel}:* for every account, ${channel} for the account named "default")`,
      );
    } else {
      bindings.push({ agentId, match: { channel, ...(accountId ? { accountId } : {}) } });
    }
  }
  if (errors.length > 0) throw new CliError(`${errors.join("\n")}\nConfig was not changed.`);
  return bindings;
}

/** One note per channel the bindings name that has no block under `channels`: such a binding matches nothing until the channel is configured. */
export function unconfiguredChannelNotes(config: OpenClawConfig, bindings: readonly Binding[]): string[] {
  const channels = [...new Set(bindings.map((b) => b.match.channel))];
  return channels
    .filter((channel) => isChannelId(channel) && config.channels?.[channel] === undefined)
    .map((channel) => `channels.${channel} is not configured, so a binding on it matches nothing until it is`);
}
