import { formatKeyPath } from "./key-path.js";
import { CHANNEL_IDS } from "./schema/channels.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/** `chat.send`'s chat: a key of the sender lists that also admit operator clients. */
const WEBCHAT = "webchat";

/**
 * Settings keyed by chat channel (`session.resetByChannel`, `messages.queue.byChannel`,
 * `messages.queue.debounceMsByChannel`, `messages.inbound.byChannel`, `tools.elevated.allowFrom`
 * and an agent's): an entry for a channel this gateway does not have loads, with a warning that it
 * never applies.
 */
export function unknownChannelKeyWarnings(config: RawOpenClawConfig): string[] {
  const maps: [string[], Record<string, unknown> | undefined, readonly string[]][] = [
    [["session", "resetByChannel"], config.session?.resetByChannel, CHANNEL_IDS],
    [["messages", "queue", "byChannel"], config.messages?.queue?.byChannel, CHANNEL_IDS],
    [["messages", "queue", "debounceMsByChannel"], config.messages?.queue?.debounceMsByChannel, CHANNEL_IDS],
    [["messages", "inbound", "byChannel"], config.messages?.inbound?.byChannel, CHANNEL_IDS],
    [["tools", "elevated", "allowFrom"], config.tools?.elevated?.allowFrom, [...CHANNEL_IDS, WEBCHAT]],
    ...Object.entries(config.agents?.entries ?? {}).map(([id, entry]): [string[], Record<string, unknown> | undefined, readonly string[]] => [
      ["agents", "entries", id, "tools", "elevated", "allowFrom"],
      entry?.tools?.elevated?.allowFrom,
      [...CHANNEL_IDS, WEBCHAT],
    ]),
  ];
  return maps.flatMap(([path, map, known]) =>
    Object.keys(map ?? {})
      .filter((channel) => !known.includes(channel))
      .map((channel) => `${formatKeyPath([...path, channel])}: "${channel}" is not a channel of this gateway (${known.join(", ")}), so this setting never applies`),
  );
}
