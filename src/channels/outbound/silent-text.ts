const SILENT_TOKEN = "NO_REPLY";

/** Text that is the silent answer, or may still become it (`NO_`): not shown while it is written, since silence must not flash in the chat. */
export function mayTurnSilent(text: string): boolean {
  const upper = text.trim().toUpperCase();
  return upper.startsWith(SILENT_TOKEN) || SILENT_TOKEN.startsWith(upper);
}
