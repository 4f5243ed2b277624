/** Cutting tool output to size: where a cut may fall and how it is marked. */

/** What replaces the characters a cut removed. */
export function truncationMarker(droppedChars: number): string {
  return `\n[… ${droppedChars} chars truncated …]\n`;
}

/** Moves a cut point off the middle of a surrogate pair, so no half emoji reaches the model. */
export function safeCut(text: string, index: number): number {
  const clamped = Math.max(0, Math.min(text.length, index));
  if (clamped > 0 && clamped < text.length) {
    const code = text.charCodeAt(clamped);
    if (code >= 0xdc00 && code <= 0xdfff) return clamped - 1;
  }
  return clamped;
}
