/**
 * OpenClaw's progress bar: a card's note may start with one
 * `<progress aria-label="PRs reviewed · 12/30" value="12" max="30"></progress>`, which its clients
 * pin above the note. The Markdown renderer shows raw HTML as text, so the bar is read here, as
 * data only (a label and two numbers), and drawn by the panel; anything else stays Markdown text.
 */
const LEADING_BAR = /^\s*<progress\s+([^<>]*)>\s*<\/progress>\s*/i;
const ATTRIBUTE = /([a-z-]+)\s*=\s*"([^"]*)"/gi;

export interface ProgressBar {
  label: string;
  value: number;
  max: number;
}

/** The note's leading bar (when it has a valid one) and the Markdown after it. */
export function splitLeadingBar(markdown: string): { bar?: ProgressBar; rest: string } {
  const match = LEADING_BAR.exec(markdown);
  if (!match) return { rest: markdown };
  const attributes = new Map([...match[1]!.matchAll(ATTRIBUTE)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
  const value = Number(attributes.get("value"));
  const max = Number(attributes.get("max") ?? "1");
  if (!Number.isFinite(value) || !Number.isFinite(max) || max <= 0 || value < 0) return { rest: markdown };
  return { bar: { label: attributes.get("aria-label") ?? "", value: Math.min(value, max), max }, rest: markdown.slice(match[0].length) };
}
