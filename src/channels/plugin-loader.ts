import type { ChannelId } from "./config/channel-accounts.js";
import type { ChannelAccountProber, ChannelPlugin } from "./types.js";

type PluginImporters = Record<ChannelId, () => Promise<{ default: ChannelPlugin }>>;

/**
 * Plugins are imported only when their channel is configured: a gateway without Discord never loads
 * discord.js, the heaviest of them (see docs/architecture.md, "Measured costs"). The bundler turns
 * each import into its own chunk.
 */
const LOADERS: PluginImporters = {
  telegram: () => import("../../extensions/telegram/index.js"),
  discord: () => import("../../extensions/discord/index.js"),
  slack: () => import("../../extensions/slack/index.js"),
};

/**
 * A plugin loader over these importers: each channel's import runs once and its plugin is shared.
 * A failed import is forgotten, so the next account start or config reload imports it again.
 */
export function createChannelPluginLoader(importers: PluginImporters): (channel: ChannelId) => Promise<ChannelPlugin> {
  const loaded = new Map<ChannelId, Promise<ChannelPlugin>>();
  return (channel) => {
    const cached = loaded.get(channel);
    if (cached) return cached;
    const loading = importers[channel]().then((m) => m.default);
    loaded.set(channel, loading);
    loading.catch(() => {
      if (loaded.get(channel) === loading) loaded.delete(channel);
    });
    return loading;
  };
}

export const loadChannelPlugin = createChannelPluginLoader(LOADERS);

const PROBES: Record<ChannelId, () => Promise<{ probeAccount: ChannelAccountProber }>> = {
  telegram: () => import("../../extensions/telegram/probe.js"),
  discord: () => import("../../extensions/discord/probe.js"),
  slack: () => import("../../extensions/slack/probe.js"),
};

/** The channel's credential check, without its SDK (see ChannelAccountProber). */
export async function loadChannelProber(channel: ChannelId): Promise<ChannelAccountProber> {
  return (await PROBES[channel]()).probeAccount;
}
