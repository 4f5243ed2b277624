import { Type } from "@sinclair/typebox";
import type { ChannelManager } from "../../channels/channel-manager.js";
import { AccountStartRefused } from "../../channels/manual-lifecycle.js";
import { CHANNEL_IDS, isChannelId, type ChannelId } from "../../channels/config/channel-accounts.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import { requireChannels } from "./channel-send.js";
import type { MethodRegistry } from "./registry.js";

/** One channel account; without `accountId`, the channel's default account. */
const ACCOUNT_PARAMS = Type.Object({ channel: Type.String({ minLength: 1 }), accountId: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false });

/**
 * `channels.stop` and `channels.start` (docs/channels.md#restarting-one-account): stop one
 * account and keep it down, then start it again, without restarting the gateway.
 */
export function registerChannelLifecycleMethods(registry: MethodRegistry, channels: () => ChannelManager | undefined): void {
  registry.register({
    name: "channels.stop",
    scope: "operator.admin",
    params: ACCOUNT_PARAMS,
    handler: async (params) => {
      const manager = requireChannels(channels);
      const { channel, accountId } = configuredAccount(manager, params.channel, params.accountId);
      const { stopped } = await manager.stopAccountManually(channel, accountId);
      return { channel, accountId, stopped };
    },
  });

  registry.register({
    name: "channels.start",
    scope: "operator.admin",
    params: ACCOUNT_PARAMS,
    handler: async (params) => {
      const manager = requireChannels(channels);
      const { channel, accountId } = configuredAccount(manager, params.channel, params.accountId);
      const { started, outcome } = await manager.startAccountManually(channel, accountId).catch((err: unknown) => {
        if (err instanceof AccountStartRefused) throw unavailable(err.message);
        throw err;
      });
      return { channel, accountId, started, outcome };
    },
  });
}

/** The channel and account the params name, as the config has them; anything else is INVALID_REQUEST naming the choices. */
function configuredAccount(manager: ChannelManager, rawChannel: string, rawAccountId: string | undefined): { channel: ChannelId; accountId: string } {
  const channel = rawChannel.trim().toLowerCase();
  if (!isChannelId(channel)) throw invalidRequest(`unknown channel "${rawChannel}" (expected one of: ${CHANNEL_IDS.join(", ")})`);
  const accountIds = manager.configuredAccountIds(channel);
  if (accountIds.length === 0) throw invalidRequest(`channel ${channel} is not configured (add a channels.${channel} block)`);
  const accountId = rawAccountId?.trim().toLowerCase() ?? manager.defaultAccountId(channel) ?? "default";
  if (!accountIds.includes(accountId)) throw invalidRequest(`unknown account "${rawAccountId}" on channel ${channel} (configured accounts: ${accountIds.join(", ")})`);
  return { channel, accountId };
}
