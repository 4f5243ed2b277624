import type { LogEntry } from "./chat-log.js";
import { fitLine, inertText, tailFit, textWidth, wrapText } from "./terminal-text.js";

/** What the screen shows, top to bottom: header, chat log, status line, footer, input line. */
export interface ScreenView {
  header: string;
  entries: readonly LogEntry[];
  status: string;
  footer: string;
  input: string;
}

const PREFIX: Record<LogEntry["kind"], string> = {
  user: "you> ",
  assistant: "",
  system: "* ",
  tool: "  tool ",
  error: "! ",
};

/** Rows the frame (header, separators, status, footer, input) takes besides the chat log. */
const CHROME_ROWS = 6;

/**
 * The frame's rows, each at most `cols` wide: every text inert, the chat log's newest lines
 * above the status line (older ones scrolled off the top), a blank line between entries.
 */
export function renderRows(view: ScreenView, cols: number, rows: number, utf8: boolean): string[] {
  const width = Math.max(10, cols);
  const rule = "-".repeat(width);
  const logRows = Math.max(1, rows - CHROME_ROWS);
  const logLines: string[] = [];
  for (const entry of view.entries) {
    if (logLines.length > 0) logLines.push("");
    const prefix = PREFIX[entry.kind];
    const body = inertText(entry.text, utf8);
    const wrapped = wrapText(body, width - prefix.length);
    wrapped.forEach((line, i) => logLines.push((i === 0 ? prefix : " ".repeat(prefix.length)) + line));
  }
  const visible = logLines.slice(-logRows);
  while (visible.length < logRows) visible.push("");
  const inputText = inertText(view.input, utf8).replaceAll("\n", utf8 ? "\u21b5" : "|");
  return [
    inertText(view.header, utf8),
    rule,
    ...visible,
    rule,
    inertText(view.status, utf8),
    inertText(view.footer, utf8),
    // The input's last column stays free for the cursor.
    `> ${tailFit(inputText, width - 3)}`,
  ].map((row) => fitLine(row, width));
}

/** Where the cursor goes: after the input's text on the last row (1-based for the terminal). */
export function cursorColumn(row: string): number {
  return textWidth(row) + 1;
}

/**
 * The terminal: the alternate screen while the TUI runs (the shell's screen comes back as it
 * was), each frame drawn whole from the top, at most one per `minIntervalMs`, again on resize.
 */
export class Screen {
  private timer: NodeJS.Timeout | undefined;
  private lastDrawAt = 0;
  private open = false;
  private readonly onResize = () => this.draw();

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly view: () => ScreenView,
    private readonly utf8: boolean,
    private readonly minIntervalMs = 30,
  ) {}

  start(): void {
    this.open = true;
    // The alternate screen, cleared; bracketed paste on, so a pasted line end is not Enter.
    this.out.write("\x1b[?1049h\x1b[?2004h\x1b[H\x1b[2J");
    this.out.on("resize", this.onResize);
    this.draw();
  }

  /** Asks for a frame: drawn now, or once the interval since the last one has passed. */
  update(): void {
    if (!this.open || this.timer) return;
    const wait = this.minIntervalMs - (Date.now() - this.lastDrawAt);
    if (wait <= 0) this.draw();
    else this.timer = setTimeout(() => this.draw(), wait);
  }

  stop(): void {
    if (!this.open) return;
    this.open = false;
    clearTimeout(this.timer);
    this.out.off("resize", this.onResize);
    this.out.write("\x1b[?2004l\x1b[?1049l");
  }

  private draw(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.open) return;
    this.lastDrawAt = Date.now();
    const cols = this.out.columns || 80;
    const rows = this.out.rows || 24;
    // The last column stays unwritten: a character there leaves the cursor waiting to wrap, and the erase after it would take that character.
    const lines = renderRows(this.view(), cols - 1, rows, this.utf8);
    // Each row is written from its first column and the rest of it erased (what the last frame left there).
    const frame = lines.map((line, i) => `\x1b[${i + 1};1H${line}\x1b[K`).join("");
    this.out.write(`\x1b[?25l${frame}\x1b[${lines.length};${cursorColumn(lines[lines.length - 1])}H\x1b[?25h`);
  }
}
