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

/**
 * Why a plugin did not load, with the fix. A package that is not installed needs a new gateway
 * process once it is: Node remembers, for the life of the process, that the package was missing
 * (and the plugin module that failed to link), so no later import in the same process (a config
 * reload, `/restart`, `config.apply`) can see it.
 */
export function describePluginLoadError(channel: ChannelId, err: unknown): string {
  const message = (err as Error).message;
  if ((err as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return `plugin failed to load: ${message}`;
  return (
    `plugin failed to load: ${message}; install the package (npm install in the gateway's directory), then restart the gateway process ` +
    `(openclaw gateway restart, or stop and start it): this process cannot load ${channel} until then`
  );
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
