/**
 * `reactions.add` takes an emoji *name*. Config and the core speak in emoji characters (the
 * default ack reaction is 👀), so the common ones are mapped; names (`eyes`, `:eyes:`) pass through.
 */
const NAMES_BY_CHARACTER: Record<string, string> = {
  "👀": "eyes",
  "👍": "+1",
  "👎": "-1",
  "✅": "white_check_mark",
  "❌": "x",
  "⏳": "hourglass_flowing_sand",
  "🤔": "thinking_face",
  "🔥": "fire",
  "🎉": "tada",
  "❤️": "heart",
  "❤": "heart",
  "🙏": "pray",
  "😂": "joy",
  "👋": "wave",
  "🚀": "rocket",
  "💯": "100",
  "🦞": "lobster",
  "⚠️": "warning",
  "🧠": "brain",
  "🛠️": "hammer_and_wrench",
  "💻": "computer",
  "🌐": "globe_with_meridians",
  "🗜️": "compression",
};

/** The Slack emoji name for `emoji`, or `undefined` when it is a character we cannot name. */
export function slackEmojiName(emoji: string): string | undefined {
  const trimmed = emoji.trim();
  const mapped = NAMES_BY_CHARACTER[trimmed];
  if (mapped) return mapped;
  const name = trimmed.replace(/^:|:$/g, "");
  return /^[a-z0-9_+'-]+(?:::skin-tone-[2-6])?$/.test(name) ? name : undefined;
}
