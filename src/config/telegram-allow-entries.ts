import { channelBlocks } from "./channel-blocks.js";
import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";

/**
 * Telegram allow-lists name senders by their numeric user id. A `@username` (or any other
 * non-numeric) entry matches nobody, as in OpenClaw: a username can be dropped and taken by
 * someone else, the id never changes. The config still loads; each such entry is named in a
 * warning with the fix.
 */
export function telegramAllowEntryWarnings(channels: unknown): string[] {
  const scopes = channelBlocks(channels).filter((scope) => scope.channel === "telegram");
  const warnings: string[] = [];
  for (const scope of scopes) {
    for (const list of senderLists(scope.path, scope.block)) {
      for (const entry of list.entries) {
        if (isTelegramSenderEntry(entry)) continue;
        warnings.push(
          `${formatKeyPath(list.path)}: ${entry} is not a numeric Telegram user id, so it admits nobody (Telegram allow-lists match sender ids only; a username can change hands): ` +
            "replace it with the sender's numeric user id (the pairing reply and /whoami show it)",
        );
      }
    }
  }
  return warnings;
}

/** `123`, `tg:123`, `telegram:123` (a negative id is a group's), `*`, or `accessGroup:<name>` (checked with the access groups). */
function isTelegramSenderEntry(entry: string): boolean {
  if (/^accessgroup:/i.test(entry.trim())) return true;
  const value = entry
    .trim()
    .replace(/^(telegram|tg):/i, "")
    .trim();
  return value === "" || value === "*" || /^-?\d+$/.test(value);
}

/** The sender lists of one Telegram block: its own, its groups' and their topics'. */
function senderLists(path: KeyPathSegment[], block: Record<string, unknown>): { path: KeyPathSegment[]; entries: string[] }[] {
  const lists = [
    { path: [...path, "allowFrom"], entries: block.allowFrom },
    { path: [...path, "groupAllowFrom"], entries: block.groupAllowFrom },
  ];
  if (isPlainObject(block.groups)) {
    for (const [groupId, group] of Object.entries(block.groups)) {
      if (!isPlainObject(group)) continue;
      lists.push({ path: [...path, "groups", groupId, "allowFrom"], entries: group.allowFrom });
      if (!isPlainObject(group.topics)) continue;
      for (const [topicId, topic] of Object.entries(group.topics)) {
        if (isPlainObject(topic)) lists.push({ path: [...path, "groups", groupId, "topics", topicId, "allowFrom"], entries: topic.allowFrom });
      }
    }
  }
  return lists
    .filter((list): list is { path: KeyPathSegment[]; entries: string[] } => Array.isArray(list.entries))
    .map((list) => ({ path: list.path, entries: list.entries.map(String) }));
}
