/**
 * Characters a reader cannot see that still change what text says or how it shows: zero-width
 * spaces and joiners, the left-to-right/right-to-left marks, the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069: "Trojan Source" reordering), the Arabic
 * letter mark, invisible operators (U+2060–U+2064), the deprecated format controls
 * (U+206A–U+206F), the byte-order mark, and the Unicode tag characters (U+E0000–U+E007F).
 */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u206A-\u206F\uFEFF\u{E0000}-\u{E007F}]/gu;

/** The text without invisible and bidirectional control characters. */
export function stripInvisibleText(text: string): string {
  return text.replace(INVISIBLE, "");
}
