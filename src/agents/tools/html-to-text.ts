/**
 * HTML to readable plain text, small on purpose: drop what is never content (scripts, styles,
 * comments), turn block elements into line breaks, strip the remaining tags, decode entities,
 * tidy the whitespace. Good enough for articles and docs pages; no layout is reconstructed.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  trade: "™",
  middot: "·",
  bull: "•",
  times: "×",
  euro: "€",
};

/** Elements whose content is never readable text. */
const INVISIBLE_ELEMENTS = /<(script|style|noscript|template|svg|iframe|object|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK_TAGS =
  /<\/?(p|div|section|article|main|header|footer|nav|aside|h[1-6]|ul|ol|dl|dt|dd|table|thead|tbody|tr|blockquote|pre|figure|figcaption|form|fieldset|address|hr)\b[^>]*>/gi;

export function htmlToText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  let text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(INVISIBLE_ELEMENTS, " ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/(td|th)\s*>/gi, "\t")
    .replace(BLOCK_TAGS, "\n")
    .replace(/<[^>]*>/g, "");
  text = collapseWhitespace(decodeEntities(text));
  const cleanTitle = title ? collapseWhitespace(decodeEntities(title.replace(/<[^>]*>/g, ""))) : "";
  return cleanTitle && !text.startsWith(cleanTitle) ? `${cleanTitle}\n\n${text}` : text;
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      // Invalid or surrogate code points would throw or produce broken text; keep them as written.
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    const name = body.toLowerCase();
    return Object.hasOwn(NAMED_ENTITIES, name) ? (NAMED_ENTITIES[name] ?? whole) : whole;
  });
}

function collapseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
