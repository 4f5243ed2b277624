import { foldText } from "./search-query.js";

/** The longest snippet, in characters, not counting the "…" at a cut end (as OpenClaw). */
export const SNIPPET_CHARS = 300;

/** How much of the text before the first matching word a snippet keeps. */
const LEAD_CHARS = 80;

/** How far a cut may move to fall between words instead of inside one. */
const WORD_SNAP_CHARS = 24;

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * A short passage of `text` around the first place one of `words` (folded, see foldText) occurs
 * as a whole word: some text before it, the rest after, cut between words where one is near,
 * whitespace runs made one space, "…" where text was left out. Without such a place (the word
 * was inside a redacted secret, or the tokenizer split it differently) it is the text's start.
 */
export function snippetAround(text: string, words: readonly string[], maxChars = SNIPPET_CHARS): string {
  const at = firstWordAt(text, words) ?? 0;
  let start = Math.max(0, at - LEAD_CHARS);
  if (start > 0) start = snapForward(text, start, at);
  let end = Math.min(text.length, start + maxChars);
  if (end < text.length) end = snapBack(text, end, Math.max(start + 1, at + 1));
  // Never split a surrogate pair: a lone half is not text.
  if (isLowSurrogate(text.charCodeAt(start))) start += 1;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  const piece = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${piece}${end < text.length ? "…" : ""}`;
}

/** Where in `text` the earliest whole-word occurrence of any of `words` starts, or undefined. */
function firstWordAt(text: string, words: readonly string[]): number | undefined {
  if (words.length === 0) return undefined;
  // The folded text, and for each of its code units the index in `text` it came from.
  let folded = "";
  const origin: number[] = [];
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      // ASCII (most text) folds to its lowercase alone: no normalization per character.
      folded += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : text[i];
      origin.push(i);
      i += 1;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    const f = foldText(char);
    folded += f;
    for (let k = 0; k < f.length; k += 1) origin.push(i);
    i += char.length;
  }
  let best: number | undefined;
  for (const word of words) {
    for (let from = folded.indexOf(word); from >= 0 && (best === undefined || from < best); from = folded.indexOf(word, from + 1)) {
      const before = from > 0 ? folded[from - 1]! : " ";
      const after = from + word.length < folded.length ? folded[from + word.length]! : " ";
      if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) {
        best = from;
        break;
      }
    }
  }
  return best === undefined ? undefined : origin[best];
}

/** `start` moved forward past the next whitespace, when that is near and before `limit`. */
function snapForward(text: string, start: number, limit: number): number {
  for (let i = start; i < Math.min(limit, start + WORD_SNAP_CHARS); i += 1) if (/\s/.test(text[i]!)) return i + 1;
  return start;
}

/** `end` moved back to the previous whitespace, when that is near and not before `floor`. */
function snapBack(text: string, end: number, floor: number): number {
  for (let i = end; i > Math.max(floor, end - WORD_SNAP_CHARS); i -= 1) if (/\s/.test(text[i - 1]!)) return i - 1;
  return end;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
