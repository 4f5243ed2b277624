/** A task's text on one line (whitespace runs become one space), cut to `maxChars` with "…". */
export function taskLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
