/** A reply shorter than this (trimmed) stays text only: there is nothing worth hearing. */
export const AUTO_TTS_MIN_CHARS = 10;
/** The most of a reply Auto-TTS speaks (OpenClaw's default limit); the rest is cut, never summarized. */
export const AUTO_TTS_MAX_CHARS = 1500;

/** What Auto-TTS speaks of a reply, or why it speaks none of it. */
export type SpokenReply = { speak: string; truncated: boolean } | { skip: string };

/** A fenced code block: ``` or ~~~ on a line of its own, through its closing fence (or the end). */
const FENCED_BLOCK = /^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:^[ \t]*\1[ \t]*$|(?![\s\S]))/gm;

/**
 * The words of a final reply to speak. Skipped: a reply under 10 characters, and one where fenced
 * code is more than half of what it says (code read aloud helps nobody). Fenced code in a reply
 * that is mostly prose is left out of the speech; inline code stays. Longer than `maxChars`
 * (at most 1500), the text is cut at the last word that fits and ends with an ellipsis.
 */
export function spokenReplyText(reply: string, maxChars: number): SpokenReply {
  const text = reply.trim();
  if (text.length < AUTO_TTS_MIN_CHARS) return { skip: `shorter than ${AUTO_TTS_MIN_CHARS} characters` };
  const prose = text.replace(FENCED_BLOCK, "").trim();
  const codeChars = text.length - prose.length;
  if (codeChars > prose.length) return { skip: "mostly fenced code" };
  if (prose.length < AUTO_TTS_MIN_CHARS) return { skip: `shorter than ${AUTO_TTS_MIN_CHARS} characters without its code` };
  const limit = Math.min(maxChars, AUTO_TTS_MAX_CHARS);
  if (prose.length <= limit) return { speak: prose, truncated: false };
  return { speak: cutAtWord(prose, limit - 1), truncated: true };
}

/** The first `max` characters (never splitting a surrogate pair), back to the last space when there is one in the second half, then an ellipsis. */
function cutAtWord(text: string, max: number): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const head = text.slice(0, end);
  const space = head.lastIndexOf(" ");
  return `${(space > end / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
