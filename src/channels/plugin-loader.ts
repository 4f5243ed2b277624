import type { ChannelId } from "./config/channel-accounts.js";
import type { ChannelPlugin } from "./types.js";

/** How each channel's plugin module is imported (the gateway's table of the plugins it ships). */
export type ChannelPluginImporters = Record<ChannelId, () => Promise<{ default: ChannelPlugin }>>;

/**
 * A plugin loader over these importers: each channel's import runs once and its plugin is shared.
 * A failed import is forgotten, so the next account start or config reload imports it again.
 */
export function createChannelPluginLoader(importers: ChannelPluginImporters): (channel: ChannelId) => Promise<ChannelPlugin> {
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
