import { formatKeyPath } from "./key-path.js";
import { CHANNEL_IDS } from "./schema/channels.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * Settings keyed by chat channel (`session.resetByChannel`, `messages.queue.byChannel`,
 * `messages.queue.debounceMsByChannel`, `messages.inbound.byChannel`): an entry for a channel this gateway does not have loads,
 * with a warning that it never applies.
 */
export function unknownChannelKeyWarnings(config: RawOpenClawConfig): string[] {
  const maps: [string[], Record<string, unknown> | undefined][] = [
    [["session", "resetByChannel"], config.session?.resetByChannel],
    [["messages", "queue", "byChannel"], config.messages?.queue?.byChannel],
    [["messages", "queue", "debounceMsByChannel"], config.messages?.queue?.debounceMsByChannel],
    [["messages", "inbound", "byChannel"], config.messages?.inbound?.byChannel],
  ];
  return maps.flatMap(([path, map]) =>
    Object.keys(map ?? {})
      .filter((channel) => !CHANNEL_IDS.includes(channel))
      .map((channel) => `${formatKeyPath([...path, channel])}: "${channel}" is not a channel of this gateway (${CHANNEL_IDS.join(", ")}), so this setting never applies`),
  );
}
