import type { SessionEntry } from "./store/index.js";

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: a label is one line of text.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A label as someone wrote it → the label to store: trimmed, and undefined (no label) when
 * nothing is left, as OpenClaw reads it; or why it cannot be one (a control character, named by
 * its code point).
 */
export function readLabel(raw: string): { ok: true; label: string | undefined } | { ok: false; problem: string } {
  const label = raw.trim();
  const control = CONTROL_CHARACTER.exec(label);
  if (control) {
    const code = `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    return { ok: false, problem: `label has a control character (${code} at position ${control.index}); a label is one line of printable text` };
  }
  return { ok: true, label: label === "" ? undefined : label };
}

/** A label names one session of an agent (sessions.resolve finds it by label): the problem when another session holds it. */
export function labelTakenBy(entries: readonly SessionEntry[], label: string, sessionKey: string): string | undefined {
  const holder = entries.find((e) => e.label === label && e.sessionKey !== sessionKey);
  return holder ? `label "${label}" is already used by session ${holder.sessionKey}` : undefined;
}
