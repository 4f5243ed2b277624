import type { OutboundTarget } from "../../src/channels/types.js";

const CHAT_ID = /^-?\d+$/;
/** Public usernames: 5-32 letters, digits and underscores, starting with a letter. */
const USERNAME = /^@[A-Za-z][A-Za-z0-9_]{4,31}$/;
const TOPIC = /^(-?\d+):topic:(\d+)$/;

/**
 * A user-written Telegram target: `123` / `-100123` (chat id), `@channelname`, or
 * `<chatId>:topic:<topicId>`, optionally prefixed `telegram:` or `tg:`.
 */
export function parseTelegramTarget(raw: string): OutboundTarget {
  const value = raw.trim().replace(/^(telegram|tg):/i, "");
  if (CHAT_ID.test(value) || USERNAME.test(value)) return { chatId: value };
  const topic = TOPIC.exec(value);
  if (topic) return { chatId: topic[1]!, threadId: topic[2]! };
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  throw new Error(`Telegram target "${shown}" is not a chat id (123, -100123), an @username, or <chatId>:topic:<topicId>`);
}
