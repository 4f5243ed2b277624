/**
 * Keys from a terminal in raw mode. One read may hold several keys (typing fast, a paste), and an
 * escape sequence (an arrow, a function key) arrives whole in one read, so a lone ESC at the end
 * of a read is the Esc key itself.
 */
export type Key =
  | { name: "text"; text: string }
  | { name: "enter" }
  | { name: "backspace" }
  | { name: "escape" }
  | { name: "ctrl-c" }
  | { name: "ctrl-d" }
  | { name: "ctrl-u" }
  | { name: "ctrl-j" }
  /** Ctrl+L, Ctrl+G, Ctrl+P, Ctrl+O, Ctrl+T: OpenClaw's pickers and toggles, not built here. */
  | { name: "unsupported"; label: string }
  /** Any other control key or escape sequence: ignored. */
  | { name: "ignored" };

const UNSUPPORTED: Record<string, string> = {
  "\x0c": "Ctrl+L (model picker)",
  "\x07": "Ctrl+G (agent picker)",
  "\x10": "Ctrl+P (session picker)",
  "\x0f": "Ctrl+O (tool output expansion)",
  "\x14": "Ctrl+T (thinking visibility)",
};

export function decodeKeys(chunk: string): Key[] {
  const keys: Key[] = [];
  let text = "";
  const flushText = () => {
    if (text) keys.push({ name: "text", text });
    text = "";
  };
  for (let i = 0; i < chunk.length; i++) {
    const char = chunk[i];
    const code = char.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      text += char;
      continue;
    }
    flushText();
    if (char === "\x1b") {
      const next = chunk[i + 1];
      if (next === undefined) keys.push({ name: "escape" });
      else if (next === "[" || next === "O") {
        // CSI / SS3: parameters up to a final byte in @..~.
        let end = i + 2;
        while (end < chunk.length && !/[@-~]/.test(chunk[end])) end++;
        // Arrows, Home/End, Delete: the input is edited at its end only.
        keys.push({ name: "ignored" });
        i = end;
      } else {
        // Alt+<key>: nothing is bound to it.
        keys.push({ name: "ignored" });
        i += 1;
      }
      continue;
    }
    if (char === "\r") keys.push({ name: "enter" });
    else if (char === "\n") keys.push({ name: "ctrl-j" });
    else if (char === "\x7f" || char === "\b") keys.push({ name: "backspace" });
    else if (char === "\x03") keys.push({ name: "ctrl-c" });
    else if (char === "\x04") keys.push({ name: "ctrl-d" });
    else if (char === "\x15") keys.push({ name: "ctrl-u" });
    else if (UNSUPPORTED[char]) keys.push({ name: "unsupported", label: UNSUPPORTED[char] });
    else if (char === "\t") text += " ";
    else keys.push({ name: "ignored" });
  }
  flushText();
  return keys;
}
