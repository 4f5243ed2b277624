import { createChannelPluginLoader, type ChannelPluginImporters } from "../channels/plugin-loader.js";
import type { ChannelId } from "../channels/config/channel-accounts.js";
import type { ChannelAccountProber } from "../channels/types.js";

/**
 * The channel plugins this gateway ships, in extensions/. Each is imported only when its channel
 * is configured: a gateway without Discord never loads discord.js, the heaviest of them (see
 * docs/architecture.md, "Measured costs"). The bundler turns each import into its own chunk.
 */
const PLUGINS: ChannelPluginImporters = {
  telegram: () => import("../../extensions/telegram/index.js"),
  discord: () => import("../../extensions/discord/index.js"),
  slack: () => import("../../extensions/slack/index.js"),
};

export const loadBuiltinChannelPlugin = createChannelPluginLoader(PLUGINS);

const PROBES: Record<ChannelId, () => Promise<{ probeAccount: ChannelAccountProber }>> = {
  telegram: () => import("../../extensions/telegram/probe.js"),
  discord: () => import("../../extensions/discord/probe.js"),
  slack: () => import("../../extensions/slack/probe.js"),
};

/** The channel's credential check, without its SDK (see ChannelAccountProber). */
export async function loadBuiltinChannelProber(channel: ChannelId): Promise<ChannelAccountProber> {
  return (await PROBES[channel]()).probeAccount;
}
