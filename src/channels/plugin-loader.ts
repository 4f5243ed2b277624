import type { ChannelId } from "./config/channel-accounts.js";
import type { ChannelAccountProber, ChannelPlugin } from "./types.js";

/**
 * Plugins are imported only when their channel is configured: a gateway without Discord never loads
 * discord.js, the heaviest of them (see docs/architecture.md, "Measured costs"). The bundler turns
 * each import into its own chunk.
 */
const LOADERS: Record<ChannelId, () => Promise<{ default: ChannelPlugin }>> = {
  telegram: () => import("../../extensions/telegram/index.js"),
  discord: () => import("../../extensions/discord/index.js"),
  slack: () => import("../../extensions/slack/index.js"),
};

const loaded = new Map<ChannelId, Promise<ChannelPlugin>>();

export function loadChannelPlugin(channel: ChannelId): Promise<ChannelPlugin> {
  let plugin = loaded.get(channel);
  if (!plugin) {
    plugin = LOADERS[channel]().then((m) => m.default);
    loaded.set(channel, plugin);
  }
  return plugin;
}

const PROBES: Record<ChannelId, () => Promise<{ probeAccount: ChannelAccountProber }>> = {
  telegram: () => import("../../extensions/telegram/probe.js"),
  discord: () => import("../../extensions/discord/probe.js"),
  slack: () => import("../../extensions/slack/probe.js"),
};

/** The channel's credential check, without its SDK (see ChannelAccountProber). */
export async function loadChannelProber(channel: ChannelId): Promise<ChannelAccountProber> {
  return (await PROBES[channel]()).probeAccount;
}
