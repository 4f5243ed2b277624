/**
 * A page can hide a wrapper marker from a plain match with characters a reader does not see
 * (zero-width space and joiners, word joiner, byte order mark, soft hyphen) or with full-width
 * letters that read as ASCII. The marker check runs on the text with the first dropped and the
 * second mapped to ASCII; each match is replaced where it stands in the original text, so every
 * other character (an emoji's zero-width joiner included) is left as it was.
 */
const INVISIBLE = new Set([0x00ad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);
const FULL_WIDTH_FIRST = 0xff01;
const FULL_WIDTH_LAST = 0xff5e;
const FULL_WIDTH_OFFSET = 0xfee0;

/** `pattern` must be global; `replacement` receives each match, found in the folded text. */
export function replaceFoldedMatches(text: string, pattern: RegExp, replacement: (match: RegExpExecArray) => string): string {
  let folded = "";
  const origin: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (INVISIBLE.has(code)) continue;
    folded += code >= FULL_WIDTH_FIRST && code <= FULL_WIDTH_LAST ? String.fromCharCode(code - FULL_WIDTH_OFFSET) : text[i];
    origin.push(i);
  }
  let out = "";
  let cursor = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(folded); match; match = pattern.exec(folded)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const start = origin[match.index]!;
    const end = origin[match.index + match[0].length - 1]! + 1;
    out += text.slice(cursor, start) + replacement(match);
    cursor = end;
  }
  return out + text.slice(cursor);
}
