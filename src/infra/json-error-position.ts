import JSON5 from "json5";

/**
 * Where a text that JSON.parse refused breaks, by line and column. V8's own message quotes the
 * text around the fault, which in a credentials file is often a secret: JSON5's parser locates it
 * instead.
 */
export function whereJsonBreaks(text: string): string {
  try {
    JSON5.parse(text);
  } catch (err) {
    const { lineNumber, columnNumber, message } = err as SyntaxError & { lineNumber?: number; columnNumber?: number };
    const reason = message.replace(/^JSON5: /, "").replace(/ at \d+:\d+$/, "");
    if (typeof lineNumber === "number" && typeof columnNumber === "number") return `line ${lineNumber}, column ${columnNumber}: ${reason}`;
    return reason;
  }
  return "a trailing comma or a comment, which JSON does not allow";
}
