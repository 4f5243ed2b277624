/** Shares of the allowed length kept from the start and the end of an over-size file. */
const HEAD_SHARE = 7;
const TAIL_SHARE = 2;

export function truncationMarker(shownChars: number, totalChars: number, fileName: string): string {
  return `\n[… truncated: ${shownChars} of ${totalChars} chars shown; read ${fileName} for the rest]\n`;
}

/**
 * Cuts `text` to at most `maxChars` characters, marker included. It keeps the start and the end
 * (7:2), because a file's newest entries are usually appended at the bottom (MEMORY.md, daily
 * logs) while its most important rules sit at the top. Returns null when nothing useful fits.
 */
export function truncateFileText(text: string, maxChars: number, fileName: string): { text: string; shownChars: number } | null {
  if (text.length <= maxChars) return { text, shownChars: text.length };
  // The marker's digits depend on shownChars; sizing it with the full length is an upper bound.
  const room = maxChars - truncationMarker(text.length, text.length, fileName).length;
  if (room <= 0) return null;
  let head = Math.floor((room * HEAD_SHARE) / (HEAD_SHARE + TAIL_SHARE));
  let tail = room - head;
  // Never split a UTF-16 surrogate pair: a lone half is invalid text to a provider.
  if (isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (isLowSurrogate(text.charCodeAt(text.length - tail))) tail -= 1;
  const shownChars = head + tail;
  const marker = truncationMarker(shownChars, text.length, fileName);
  return { text: text.slice(0, head) + marker + (tail > 0 ? text.slice(text.length - tail) : ""), shownChars };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
