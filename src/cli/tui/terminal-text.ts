/**
 * Text that reaches the terminal. Model and gateway text is untrusted: a control character in it
 * could move the cursor, recolour the screen or set the window title, so every one is shown in
 * caret notation (ESC as `^[`, DEL as `^?`, a C1 byte as `<U+009B>`) and nothing is passed through.
 */

/** Whether the terminal's locale takes UTF-8 (LC_ALL, then LC_CTYPE, then LANG, as the C library reads them). */
export function localeIsUtf8(env: NodeJS.ProcessEnv = process.env): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
  return /utf-?8/i.test(locale);
}

/**
 * `text` made inert for one terminal line: tabs become spaces, newlines are kept for the caller to
 * split on, every other control character is shown visibly; without a UTF-8 locale each
 * non-ASCII character becomes `?` (the terminal would print its bytes as garbage).
 */
export function inertText(text: string, utf8: boolean): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === "\n") out += "\n";
    else if (char === "\t") out += "  ";
    else if (code < 0x20) out += `^${String.fromCharCode(code + 0x40)}`;
    else if (code === 0x7f) out += "^?";
    else if (code >= 0x80 && code <= 0x9f) out += `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
    else if (!utf8 && code > 0x7e) out += "?";
    else out += char;
  }
  return out;
}

/** Columns a character takes: 0 for combining marks and zero-width ones, 2 for East Asian wide and emoji, else 1. */
export function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f) || code === 0xfeff) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Columns `text` (already inert, one line) takes. */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/**
 * `text` (inert) broken into lines of at most `width` columns: at its newlines, then at the last
 * space that fits, and a word longer than the line is cut where the line ends (never widened).
 */
export function wrapText(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let rest = [...paragraph];
    if (rest.length === 0) lines.push("");
    while (rest.length > 0) {
      let used = 0;
      let cut = 0;
      while (cut < rest.length && used + charWidth(rest[cut]) <= max) used += charWidth(rest[cut++]);
      if (cut === rest.length) {
        lines.push(rest.join(""));
        break;
      }
      const space = rest.lastIndexOf(" ", cut);
      const end = space > 0 ? space : Math.max(cut, 1);
      lines.push(rest.slice(0, end).join(""));
      rest = rest.slice(space > 0 ? end + 1 : end);
    }
  }
  return lines;
}

/** `text` (inert, one line) cut to at most `width` columns. */
export function fitLine(text: string, width: number): string {
  let out = "";
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width) break;
    out += char;
    used += w;
  }
  return out;
}

/** The last columns of `text` that fit in `width` (an input line longer than the screen shows its end). */
export function tailFit(text: string, width: number): string {
  const chars = [...text];
  let used = 0;
  let start = chars.length;
  while (start > 0 && used + charWidth(chars[start - 1]) <= width) used += charWidth(chars[--start]);
  return chars.slice(start).join("");
}
