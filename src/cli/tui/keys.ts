/**
 * Keys from a terminal in raw mode. One read may hold several keys (typing fast), and an escape
 * sequence (an arrow, a function key) arrives whole in one read, so a lone ESC at the end of a
 * read is the Esc key itself. A paste arrives bracketed (the screen turns bracketed paste on) and
 * is one key, its newlines kept: pasting lines does not send them.
 */
export type Key =
  | { name: "text"; text: string }
  | { name: "paste"; text: string }
  | { name: "enter" }
  | { name: "backspace" }
  | { name: "escape" }
  | { name: "ctrl-c" }
  | { name: "ctrl-d" }
  | { name: "ctrl-u" }
  | { name: "ctrl-j" }
  /** The Up and Down arrows: pickers move with them; the chat input ignores them. */
  | { name: "up" }
  | { name: "down" }
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

const ARROWS: Record<string, "up" | "down"> = { A: "up", B: "down" };

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
        const arrow = end === i + 2 ? ARROWS[chunk[end]] : undefined;
        // Left/Right, Home/End, Delete, modified keys: the input is edited at its end only.
        keys.push(arrow ? { name: arrow } : { name: "ignored" });
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

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Reads a terminal's chunks into keys; a bracketed paste may span several chunks. */
export class KeyReader {
  /** The paste read so far, while its end marker has not come. */
  private paste: string | undefined;

  read(chunk: string): Key[] {
    const keys: Key[] = [];
    let rest = chunk;
    while (rest) {
      if (this.paste === undefined) {
        const start = rest.indexOf(PASTE_START);
        if (start === -1) {
          keys.push(...decodeKeys(rest));
          break;
        }
        keys.push(...decodeKeys(rest.slice(0, start)));
        this.paste = "";
        rest = rest.slice(start + PASTE_START.length);
        continue;
      }
      const end = rest.indexOf(PASTE_END);
      if (end === -1) {
        this.paste += rest;
        break;
      }
      keys.push({ name: "paste", text: pastedText(this.paste + rest.slice(0, end)) });
      this.paste = undefined;
      rest = rest.slice(end + PASTE_END.length);
    }
    return keys;
  }
}

/** A paste's text for the input: line ends as newlines, tabs as spaces, other control characters dropped. */
function pastedText(raw: string): string {
  return raw
    .replace(/\r\n?/g, "\n")
    .replaceAll("\t", " ")
    .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, "");
}
