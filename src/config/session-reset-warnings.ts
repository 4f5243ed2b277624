import { formatKeyPath } from "./key-path.js";
import { ChannelsSchema } from "./schema/channels.js";
import type { RawOpenClawConfig } from "./schema/index.js";

const CHANNELS = Object.keys(ChannelsSchema.properties);

/** A `session.resetByChannel` entry for a channel this gateway does not have loads, with a warning that it never applies. */
export function sessionResetWarnings(config: RawOpenClawConfig): string[] {
  return Object.keys(config.session?.resetByChannel ?? {})
    .filter((channel) => !CHANNELS.includes(channel))
    .map(
      (channel) => `${formatKeyPath(["session", "resetByChannel", channel])}: "${channel}" is not a channel of this gateway (${CHANNELS.join(", ")}), so this policy never applies`,
    );
}
