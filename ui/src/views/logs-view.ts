import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, errorBox, unavailable } from "../view-helpers.js";

const POLL_MS = 2_000;
const KEEP_LINES = 2_000;
const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
const PINO_LEVELS: Record<number, (typeof LEVELS)[number]> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };

interface LogLine {
  level: (typeof LEVELS)[number];
  time: string;
  msg: string;
  raw: string;
}

/** The gateway's log, followed live through logs.tail's byte cursor, filtered by level. */
export class LogsView extends ViewElement {
  static properties = { ...ViewElement.properties, lines: { state: true }, minLevel: { state: true }, error: { state: true }, missing: { state: true } };
  declare lines: LogLine[];
  declare minLevel: (typeof LEVELS)[number];
  declare error: string | undefined;
  declare missing: boolean;
  private cursor: number | undefined;
  private timer: number | undefined;

  constructor() {
    super();
    this.lines = [];
    this.minLevel = "info";
    this.missing = false;
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.timer);
  }

  protected async load(): Promise<void> {
    window.clearTimeout(this.timer);
    await this.poll();
  }

  private async poll(): Promise<void> {
    const res = await call<{ cursor: number; lines: string[]; reset?: boolean }>(this.client, "logs.tail", {
      limit: 500,
      ...(this.cursor !== undefined ? { cursor: this.cursor } : {}),
    });
    if (!res.ok) {
      this.missing = res.unavailable;
      this.error = res.unavailable ? undefined : res.message;
      if (res.unavailable) return;
    } else {
      const fresh = res.value.lines.map(parseLine);
      this.lines = (res.value.reset ? fresh : [...this.lines, ...fresh]).slice(-KEEP_LINES);
      this.cursor = res.value.cursor;
      this.error = undefined;
    }
    if (this.isConnected) this.timer = window.setTimeout(() => void this.poll(), POLL_MS);
  }

  protected render() {
    const min = LEVELS.indexOf(this.minLevel);
    const shown = this.lines.filter((l) => LEVELS.indexOf(l.level) >= min);
    return html`<section aria-label="Logs">
      <h2>Logs</h2>
      ${this.missing ? unavailable("logs.tail") : nothing} ${errorBox(this.error)}
      <label>Level at least
        <select @change=${(e: Event) => (this.minLevel = (e.target as HTMLSelectElement).value as LogLine["level"])}>
          ${LEVELS.map((l) => html`<option value=${l} ?selected=${l === this.minLevel}>${l}</option>`)}
        </select>
      </label>
      <ol class="log-lines" aria-live="polite">
        ${shown.map((l) => html`<li class="lvl-${l.level}"><span class="time">${l.time}</span> <span class="lvl">${l.level}</span> ${l.msg}</li>`)}
      </ol>
    </section>`;
  }
}

function parseLine(raw: string): LogLine {
  try {
    const obj = JSON.parse(raw) as Record<string, unknown>;
    const level = typeof obj.level === "number" ? (PINO_LEVELS[obj.level] ?? "info") : LEVELS.includes(obj.level as never) ? (obj.level as LogLine["level"]) : "info";
    const { level: _l, time, msg, pid: _p, hostname: _h, ...rest } = obj;
    const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : "";
    return { level, time: typeof time === "number" ? new Date(time).toLocaleTimeString() : String(time ?? ""), msg: `${String(msg ?? "")}${extra}`, raw };
  } catch {
    return { level: "info", time: "", msg: raw, raw };
  }
}

customElements.define("oc-logs-view", LogsView);
