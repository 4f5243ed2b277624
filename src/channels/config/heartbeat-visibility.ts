import type { HeartbeatVisibility, OpenClawConfig } from "../../config/index.js";
import { defaultAccountId, isChannelId } from "./channel-accounts.js";

type Flags = Partial<HeartbeatVisibility>;

/** OpenClaw's defaults: no acknowledgements, alerts, status events. */
const DEFAULT_VISIBILITY: HeartbeatVisibility = { showOk: false, showAlerts: true, useIndicator: true };

/**
 * What heartbeats show through a channel account, each flag on its own: the account's
 * `heartbeatVisibility`, else its channel's, else `channels.defaults.heartbeatVisibility`.
 */
export function heartbeatVisibilityFor(config: OpenClawConfig, channel: string, accountId: string | undefined): HeartbeatVisibility {
  const defaults = config.channels?.defaults?.heartbeatVisibility;
  if (!isChannelId(channel)) return { ...DEFAULT_VISIBILITY, ...defined(defaults) };
  const block = config.channels?.[channel] as { heartbeatVisibility?: Flags; accounts?: Record<string, { heartbeatVisibility?: Flags }> } | undefined;
  const id = accountId?.toLowerCase() ?? defaultAccountId(config, channel);
  const account = Object.entries(block?.accounts ?? {}).find(([key]) => key.toLowerCase() === id)?.[1];
  return { ...DEFAULT_VISIBILITY, ...defined(defaults), ...defined(block?.heartbeatVisibility), ...defined(account?.heartbeatVisibility) };
}

/** The flags that are set (an unset flag falls through to the next level). */
function defined(flags: Flags | undefined): Flags {
  return Object.fromEntries(Object.entries(flags ?? {}).filter(([, value]) => value !== undefined));
}
