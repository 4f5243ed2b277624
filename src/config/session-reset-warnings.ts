import { formatKeyPath } from "./key-path.js";
import { CHANNEL_IDS } from "./schema/channels.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/** A `session.resetByChannel` entry for a channel this gateway does not have loads, with a warning that it never applies. */
export function sessionResetWarnings(config: RawOpenClawConfig): string[] {
  return Object.keys(config.session?.resetByChannel ?? {})
    .filter((channel) => !CHANNEL_IDS.includes(channel))
    .map(
      (channel) =>
        `${formatKeyPath(["session", "resetByChannel", channel])}: "${channel}" is not a channel of this gateway (${CHANNEL_IDS.join(", ")}), so this policy never applies`,
    );
}
