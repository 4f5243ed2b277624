import { Type } from "@sinclair/typebox";
import type { ChannelManager } from "../../channels/channel-manager.js";
import { CHANNEL_IDS } from "../../channels/config/channel-accounts.js";
import { invalidRequest } from "../protocol/errors.js";
import { registerChannelLifecycleMethods } from "./channel-lifecycle-methods.js";
import { requireChannels, sendThroughChannels } from "./channel-send.js";
import type { MethodRegistry } from "./registry.js";

const LABELS: Record<string, string> = { telegram: "Telegram", discord: "Discord", slack: "Slack" };

/** `pairing.approve` and `pairing.reject`: the pairing code a DM sender was given, on a channel (and account). */
const PAIRING_ANSWER_PARAMS = Type.Object(
  { channel: Type.String({ minLength: 1 }), code: Type.String({ minLength: 1, maxLength: 32 }), accountId: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/**
 * `send` (direct delivery, see docs/channels.md), `channels.status`, `channels.stop` / `channels.start`, and the DM pairing methods
 * behind `openclaw pairing list|approve|reject`. `channels()` is undefined while no channel is configured.
 */
export function registerChannelMethods(registry: MethodRegistry, channels: () => ChannelManager | undefined): void {
  const require = (): ChannelManager => requireChannels(channels);

  registry.register({
    name: "send",
    scope: "operator.write",
    params: Type.Object(
      {
        to: Type.String({ minLength: 1 }),
        message: Type.String({ minLength: 1, maxLength: 100_000 }),
        idempotencyKey: Type.String({ minLength: 1, maxLength: 256 }),
        channel: Type.Optional(Type.String()),
        accountId: Type.Optional(Type.String()),
        threadId: Type.Optional(Type.String()),
        replyToId: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
    handler: (params) => sendThroughChannels(channels, params),
  });

  registry.register({
    name: "channels.status",
    scope: "operator.read",
    params: Type.Object({ probe: Type.Optional(Type.Boolean()), timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: true }),
    handler: () => channelsStatusPayload(channels()),
  });

  registerChannelLifecycleMethods(registry, channels);

  registry.register({
    name: "pairing.list",
    scope: "operator.admin",
    params: Type.Object({ channel: Type.Optional(Type.String()), accountId: Type.Optional(Type.String()) }, { additionalProperties: false }),
    handler: (params) => ({ requests: require().listPairing(params.channel?.toLowerCase(), params.accountId?.toLowerCase()) }),
  });

  registry.register({
    name: "pairing.approve",
    scope: "operator.admin",
    params: PAIRING_ANSWER_PARAMS,
    handler: (params) => {
      const approved = require().approvePairing(params.channel.toLowerCase(), params.code, params.accountId?.toLowerCase());
      if (!approved)
        throw invalidRequest(`no pending pairing request with code ${params.code.trim().toUpperCase()} on ${params.channel} (expired after 1 hour, or already approved)`);
      return { approved };
    },
  });

  registry.register({
    name: "pairing.reject",
    scope: "operator.admin",
    params: PAIRING_ANSWER_PARAMS,
    handler: (params) => {
      const rejected = require().rejectPairing(params.channel.toLowerCase(), params.code, params.accountId?.toLowerCase());
      if (!rejected)
        throw invalidRequest(`no pending pairing request with code ${params.code.trim().toUpperCase()} on ${params.channel} (expired after 1 hour, or already answered)`);
      return { rejected };
    },
  });
}

/** The `channels.status` shape real clients read, also folded into `health`. */
export function channelsStatusPayload(manager: ChannelManager | undefined): Record<string, unknown> {
  const statuses = manager?.accountStatuses() ?? [];
  const order = CHANNEL_IDS.filter((c) => statuses.some((s) => s.channel === c));
  const channels: Record<string, unknown> = {};
  const channelAccounts: Record<string, unknown[]> = {};
  for (const channel of order) {
    const accounts = statuses.filter((s) => s.channel === channel);
    channelAccounts[channel] = accounts.map(({ channel: _c, ...rest }) => rest);
    channels[channel] = {
      configured: accounts.some((a) => a.configured),
      running: accounts.some((a) => a.running),
      connected: accounts.some((a) => a.connected),
      lastError: accounts.find((a) => a.lastError)?.lastError ?? null,
      reconnectAttempts: accounts.reduce((n, a) => n + a.reconnectAttempts, 0),
    };
  }
  return {
    ts: Date.now(),
    channelOrder: order,
    channelLabels: Object.fromEntries(order.map((c) => [c, LABELS[c] ?? c])),
    channels,
    channelAccounts,
    channelDefaultAccountId: Object.fromEntries(order.map((c) => [c, manager?.defaultAccountId(c) ?? "default"])),
  };
}
