import { type Key, KeyReader } from "../tui/keys.js";
import { fitLine, inertText, textWidth } from "../tui/terminal-text.js";
import { fuzzyMatches, type ResumeChoice } from "./session-match.js";

export interface PickerTerminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  utf8: boolean;
}

export const PICKER_TITLE = "Resume a session";
const PICKER_HELP = "Up/Down move, Enter opens, type to filter, Esc clears the filter or cancels";
/** Rows the picker's frame takes besides its list: title, help, filter line, rule. */
const CHROME_ROWS = 4;

/**
 * The state of the session picker: the filter typed so far, the choices it keeps (every word
 * fuzzy-matched, best first; all of them, in the gateway's order, while it is empty) and the
 * highlighted one.
 */
export class PickerState {
  filter = "";
  selected = 0;
  visible: ResumeChoice[];

  constructor(private readonly choices: readonly ResumeChoice[]) {
    this.visible = [...choices];
  }

  /** What a key does: undefined to keep picking, `{key}` to open that session, `{cancel}` to leave. */
  press(key: Key): { key: string } | { cancel: true } | undefined {
    switch (key.name) {
      case "text":
      case "paste":
        return this.setFilter(this.filter + key.text.replace(/\s+/g, " "));
      case "backspace":
        return this.setFilter([...this.filter].slice(0, -1).join(""));
      case "ctrl-u":
        return this.setFilter("");
      case "up":
        this.selected = Math.max(0, this.selected - 1);
        return undefined;
      case "down":
        this.selected = Math.min(Math.max(0, this.visible.length - 1), this.selected + 1);
        return undefined;
      case "enter": {
        const choice = this.visible[this.selected];
        return choice ? { key: choice.key } : undefined;
      }
      // The first Esc clears a filter; an Esc with none, or Ctrl+C or Ctrl+D, leaves.
      case "escape":
        return this.filter ? this.setFilter("") : { cancel: true };
      case "ctrl-c":
      case "ctrl-d":
        return { cancel: true };
      default:
        return undefined;
    }
  }

  /** The frame's rows for a terminal `cols` wide and `rows` high, each inert and cut to fit. */
  render(cols: number, rows: number, utf8: boolean): string[] {
    const width = Math.max(10, cols);
    const listRows = Math.max(1, rows - CHROME_ROWS);
    // The window of the list keeps the highlighted row in view.
    const first = Math.max(0, Math.min(this.selected - listRows + 1, this.visible.length - listRows));
    const list = this.visible.slice(Math.max(0, first), Math.max(0, first) + listRows).map((choice, i) => {
      const marker = Math.max(0, first) + i === this.selected ? "> " : "  ";
      return `${marker}${choice.title}${choice.detail ? `  ${choice.detail}` : ""}`;
    });
    if (this.visible.length === 0) list.push(`  no session matches "${this.filter}"`);
    return [PICKER_TITLE, PICKER_HELP, `filter> ${this.filter}`, "-".repeat(width), ...list].map((row) => fitLine(inertText(row, utf8).replaceAll("\n", " "), width));
  }

  private setFilter(filter: string): undefined {
    this.filter = filter;
    this.visible = fuzzyMatches(this.choices, filter);
    this.selected = 0;
    return undefined;
  }
}

/**
 * Shows `choices` full-screen (the terminal's alternate screen, so the shell's screen comes back)
 * and resolves with the chosen session's key, or undefined when the user cancels.
 */
export function pickResumeSession(choices: readonly ResumeChoice[], terminal: PickerTerminal): Promise<string | undefined> {
  const { stdin, stdout, utf8 } = terminal;
  const state = new PickerState(choices);
  const reader = new KeyReader();
  const draw = () => {
    const rows = state.render((stdout.columns || 80) - 1, stdout.rows || 24, utf8);
    const frame = rows.map((row, i) => `\x1b[${i + 1};1H${row}\x1b[K`).join("");
    // The rows below the frame are cleared; the cursor waits at the end of the filter line.
    stdout.write(`\x1b[?25l\x1b[H${frame}\x1b[J\x1b[3;${textWidth(rows[2]) + 1}H\x1b[?25h`);
  };
  return new Promise((resolve) => {
    const restore = () => {
      stdin.setRawMode?.(false);
      stdout.write("\x1b[?1049l");
    };
    const finish = (result: string | undefined) => {
      stdin.off("data", onData);
      stdin.pause();
      stdout.off("resize", draw);
      process.off("exit", restore);
      restore();
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      for (const key of reader.read(chunk.toString())) {
        const outcome = state.press(key);
        if (outcome) return finish("key" in outcome ? outcome.key : undefined);
      }
      draw();
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
    stdout.on("resize", draw);
    // However the process ends, the shell gets its screen and line mode back.
    process.once("exit", restore);
    stdout.write("\x1b[?1049h\x1b[H\x1b[2J");
    draw();
  });
}
