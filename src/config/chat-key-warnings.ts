import { channelBlocks } from "./channel-blocks.js";
import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";

/** How each platform's chat allowlist maps are keyed: by id (or `"*"`), never by name. */
const TELEGRAM_CHAT = /^-?\d+$/;
const TELEGRAM_TOPIC = /^\d+$/;
const DISCORD_ID = /^\d+$/;
const SLACK_CHANNEL = /^[CGD][A-Z0-9]+$/i;

/**
 * OpenClaw also takes a chat's name as the key of a group, guild or channel entry; here chats are
 * matched by id only, so such an entry would match no chat. The config still loads; each such
 * key is named in a warning with the fix.
 */
export function chatKeyWarnings(channels: unknown): string[] {
  const warnings: string[] = [];
  const check = (map: unknown, path: KeyPathSegment[], pattern: RegExp, platform: string, each?: (key: string, entry: Record<string, unknown>) => void) => {
    if (!isPlainObject(map)) return;
    for (const [key, entry] of Object.entries(map)) {
      const at = formatKeyPath([...path, key]);
      if (key !== "*" && !pattern.test(key.trim()))
        warnings.push(`${at}: "${key}" is not a ${platform} id, so this entry matches no chat (chats are matched by id only): key it by the chat's id`);
      if (each && isPlainObject(entry)) each(key, entry);
    }
  };
  for (const { channel, path, block } of channelBlocks(channels)) {
    if (channel === "telegram")
      check(block.groups, [...path, "groups"], TELEGRAM_CHAT, "Telegram chat", (key, group) =>
        check(group.topics, [...path, "groups", key, "topics"], TELEGRAM_TOPIC, "Telegram topic"),
      );
    if (channel === "discord")
      check(block.guilds, [...path, "guilds"], DISCORD_ID, "Discord server", (key, guild) =>
        check(guild.channels, [...path, "guilds", key, "channels"], DISCORD_ID, "Discord channel"),
      );
    if (channel === "slack") check(block.channels, [...path, "channels"], SLACK_CHANNEL, "Slack channel");
  }
  return warnings;
}
