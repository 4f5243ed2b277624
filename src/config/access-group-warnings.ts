import { channelBlocks } from "./channel-blocks.js";
import { CHANNEL_IDS } from "./schema/channels.js";
import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";
import type { OpenClawConfig } from "./types.js";

const ACCESS_GROUP = /^accessgroup:(.*)$/i;
/** The keys that hold sender lists in a channel block and the chats it lists. */
const SENDER_LIST_KEYS = new Set(["allowFrom", "groupAllowFrom", "users"]);
const CHAT_MAP_KEYS = new Set(["groups", "topics", "guilds", "channels", "dms"]);

/**
 * `accessGroup:<name>` entries that admit nobody, each named with the fix: a name no
 * `accessGroups` entry defines, a group named in `commands.ownerAllowFrom` (an access group
 * names no owner), a `*` among a group's members (naming a group never opens a list to
 * everyone), and members listed under a key that is no channel of this gateway. The config still loads.
 */
export function accessGroupWarnings(config: Pick<OpenClawConfig, "accessGroups" | "channels" | "commands">): string[] {
  const groups = config.accessGroups ?? {};
  const warnings: string[] = [];
  const checkList = (path: KeyPathSegment[], entries: unknown) => {
    if (!Array.isArray(entries)) return;
    for (const entry of entries) {
      const name = ACCESS_GROUP.exec(String(entry).trim())?.[1]?.trim();
      if (name === undefined || Object.hasOwn(groups, name)) continue;
      warnings.push(
        `${formatKeyPath(path)}: ${String(entry)} names no accessGroups entry, so it admits nobody: define accessGroups.${name} ({ type: message.senders, members: { <channel>: [ids] } }) or remove the entry`,
      );
    }
  };
  for (const scope of channelBlocks(config.channels)) walkSenderLists(scope.path, scope.block, checkList);
  for (const [channel, list] of Object.entries(config.commands?.allowFrom ?? {})) checkList(["commands", "allowFrom", channel], list);
  for (const entry of config.commands?.ownerAllowFrom ?? []) {
    if (ACCESS_GROUP.test(String(entry).trim())) {
      warnings.push(`commands.ownerAllowFrom: ${String(entry)} names nobody as the owner (an access group only admits senders): list the owner's own id`);
    }
  }
  for (const [name, group] of Object.entries(groups)) {
    for (const [channel, members] of Object.entries(group.members)) {
      if (channel !== "*" && !CHANNEL_IDS.includes(channel)) {
        warnings.push(`accessGroups.${name}.members.${channel}: not a channel of this gateway (${CHANNEL_IDS.join(", ")} or *), so these members are never checked`);
      }
      if (members.some((member) => String(member).trim() === "*")) {
        warnings.push(`accessGroups.${name}.members.${channel}: "*" admits nobody here (naming a group never opens a list to everyone): write "*" in the allowlist itself`);
      }
    }
  }
  return warnings;
}

/** Every sender list under a channel block: its own and those of the chats it lists (groups, topics, guilds, channels). */
function walkSenderLists(path: KeyPathSegment[], block: Record<string, unknown>, visit: (path: KeyPathSegment[], entries: unknown) => void): void {
  for (const [key, value] of Object.entries(block)) {
    if (SENDER_LIST_KEYS.has(key)) visit([...path, key], value);
    else if (CHAT_MAP_KEYS.has(key) && isPlainObject(value)) {
      for (const [id, chat] of Object.entries(value)) if (isPlainObject(chat)) walkSenderLists([...path, key, id], chat, visit);
    }
  }
}
