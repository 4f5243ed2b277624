/**
 * Text from config or the gateway (a command, an agent or session name) as one printable line:
 * control characters, newlines included, are shown as escapes, so the text cannot hide what follows
 * it or redraw the terminal.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => {
    if (ch === "\n") return "\\n";
    if (ch === "\r") return "\\r";
    if (ch === "\t") return "\\t";
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
