import { randomUUID } from "node:crypto";
import { ChatLog } from "./chat-log.js";
import type { ConnectionState, GatewayConnection } from "./connection.js";
import { footerLine, sessionFacts, type SessionFacts } from "./footer.js";
import { type Key, KeyReader } from "./keys.js";
import { historyEntries, messageText, toolCallLine } from "./message-text.js";
import { Screen, type ScreenView } from "./screen.js";
import { agentOfSessionKey, expandSessionKey, parseTuiInput, TUI_COMMANDS } from "./slash-commands.js";

export interface TuiAppOptions {
  connection: GatewayConnection;
  agentId: string;
  sessionKey: string;
  /** The agents' main session key (agents.list `mainKey`): `/agent <id>` opens `agent:<id>:<mainKey>`. */
  mainKey: string;
  deliver: boolean;
  historyLimit: number;
  utf8: boolean;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

/** What a run of the current session is doing, for the status line. */
type Activity = "loading history" | "idle" | "sending" | "running" | "streaming" | "aborting";

/** A second Ctrl+C within this time exits. */
const CTRL_C_WINDOW_MS = 2000;
/** A message's own echo arrives within its turn: the last few keys are enough to recognise it. */
const SENT_KEYS_KEPT = 64;

const NOT_SUPPORTED = "pickers and overlays (Ctrl+L/G/P/O/T, /settings), image previews, ask_user and secrets prompts, --local";

/**
 * The running TUI: keys in, gateway calls out, gateway events into the chat log, the screen
 * redrawn after each change. Resolves `done` with the exit code when the user leaves.
 */
export class TuiApp {
  private readonly log = new ChatLog();
  private readonly screen: Screen;
  private agentId: string;
  private sessionKey: string;
  private input = "";
  /** The app is built on an open connection; the connection's events change this. */
  private connection: ConnectionState = "connected";
  private connectionDetail = "";
  private activity: Activity = "loading history";
  private lastError = "";
  /** Runs of the current session that have not ended. */
  private readonly activeRuns = new Set<string>();
  /** Keys of the messages this TUI sent (newest kept): the gateway's `session.message` for them is already in the log. */
  private readonly sentKeys = new Set<string>();
  /** The session whose transcript this connection follows (`sessions.messages.subscribe`). */
  private followed: string | undefined;
  private facts: SessionFacts = {};
  private ctrlCAt = 0;
  private finish: ((code: number) => void) | undefined;
  readonly done: Promise<number>;
  private readonly keys = new KeyReader();
  private readonly onData = (chunk: Buffer | string) => this.onKeys(this.keys.read(chunk.toString()));

  constructor(private readonly opts: TuiAppOptions) {
    this.agentId = opts.agentId;
    this.sessionKey = opts.sessionKey;
    this.screen = new Screen(opts.stdout, () => this.view(), opts.utf8);
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  /** Called by the connection's events. */
  connectionChanged(state: ConnectionState, detail?: string): void {
    // The loss goes into the log once; each failed retry only updates the status line.
    if (state === "reconnecting" && this.connection === "connected" && detail) this.log.add("system", `${detail}; reconnecting\u2026`);
    this.connection = state;
    this.connectionDetail = detail ?? "";
    this.screen.update();
  }

  /** The history is loaded again (what happened while away is in it), then the notice goes below it. */
  async reconnected(): Promise<void> {
    await this.loadSession();
    this.log.add("system", "reconnected to the gateway");
    this.screen.update();
  }

  gatewayEvent(name: string, payload: unknown): void {
    const event = (payload ?? {}) as Record<string, unknown>;
    if (event.sessionKey !== this.sessionKey) return;
    if (name === "chat") this.onChatEvent(event);
    else if (name === "agent") this.onAgentEvent(event);
    else if (name === "session.message") this.onSessionMessage(event);
  }

  /** A user message another client or a chat wrote to this session goes into the log as it arrives; the TUI's own are there already. */
  private onSessionMessage(event: Record<string, unknown>): void {
    const message = event.message as { role?: unknown; idempotencyKey?: unknown } | undefined;
    if (message?.role !== "user" || (typeof message.idempotencyKey === "string" && this.sentKeys.has(message.idempotencyKey))) return;
    for (const entry of historyEntries([message])) this.log.add(entry.kind, entry.text);
    this.screen.update();
  }

  async start(): Promise<void> {
    const { stdin } = this.opts;
    stdin.setRawMode?.(true);
    stdin.setEncoding("utf8");
    stdin.on("data", this.onData);
    stdin.resume();
    this.screen.start();
    // However the process ends (an uncaught error included), the shell gets its screen and line mode back.
    process.once("exit", this.restoreTerminal);
    await this.loadSession();
  }

  private readonly restoreTerminal = () => {
    this.opts.stdin.setRawMode?.(false);
    this.screen.stop();
  };

  /** Leaves the terminal as it was. */
  stop(code: number): void {
    const { stdin } = this.opts;
    stdin.off("data", this.onData);
    stdin.pause();
    process.off("exit", this.restoreTerminal);
    this.restoreTerminal();
    this.opts.connection.close();
    this.finish?.(code);
  }

  private view(): ScreenView {
    return {
      header: `openclaw tui | ${this.opts.connection.url} | agent ${this.agentId} | session ${this.sessionKey}`,
      entries: this.log.entries(),
      status: this.statusLine(),
      footer: footerLine(this.agentId, this.sessionKey, this.facts, this.opts.deliver),
      input: this.input,
    };
  }

  private statusLine(): string {
    if (this.connection !== "connected") return `${this.connection}${this.connectionDetail ? ` | ${this.connectionDetail}` : ""}`;
    if (this.lastError && this.activity === "idle") return `connected | error | ${this.lastError.split("\n")[0]}`;
    return `connected | ${this.activity}${this.activity === "running" || this.activity === "streaming" ? " | Esc aborts" : ""}`;
  }

  private onKeys(keys: Key[]): void {
    for (const key of keys) this.onKey(key);
    this.screen.update();
  }

  private onKey(key: Key): void {
    if (key.name !== "ctrl-c") this.ctrlCAt = 0;
    switch (key.name) {
      case "text":
      case "paste":
        this.input += key.text;
        break;
      case "ctrl-j":
        this.input += "\n";
        break;
      case "backspace":
        this.input = [...this.input].slice(0, -1).join("");
        break;
      case "ctrl-u":
        this.input = "";
        break;
      case "enter": {
        const line = this.input;
        this.input = "";
        void this.submit(line);
        break;
      }
      case "escape":
        if (this.activeRuns.size > 0) this.abort().catch((err: Error) => this.showError(`abort failed: ${err.message}`));
        break;
      case "ctrl-c":
        if (this.ctrlCAt && Date.now() - this.ctrlCAt < CTRL_C_WINDOW_MS) return this.stop(0);
        this.ctrlCAt = Date.now();
        this.input = "";
        this.log.add("system", "input cleared; press Ctrl+C again to exit (or Ctrl+D)");
        break;
      case "ctrl-d":
        return this.stop(0);
      case "unsupported":
        this.log.add("system", `${key.label} is not supported in this TUI; use /agent, /session and /model instead`);
        break;
      case "up":
      case "down":
      case "ignored":
        break;
    }
  }

  private async submit(line: string): Promise<void> {
    const input = parseTuiInput(line);
    try {
      switch (input.kind) {
        case "empty":
          return;
        case "help":
          return this.showHelp();
        case "agents":
          return await this.listAgents();
        case "agent":
          return await this.switchAgent(input.id);
        case "sessions":
          return await this.listSessions();
        case "session":
          return await this.switchSession(expandSessionKey(input.key, this.agentId), `session: ${expandSessionKey(input.key, this.agentId)}`);
        case "new":
          return await this.newSession();
        case "abort":
          if (this.activeRuns.size === 0) this.log.add("system", "no run to abort");
          else await this.abort();
          return;
        case "exit":
          return this.stop(0);
        case "usage":
          this.log.add("error", input.message);
          return;
        case "message":
          return await this.send(input.text);
      }
    } catch (err) {
      this.showError((err as Error).message);
    } finally {
      this.screen.update();
    }
  }

  private showHelp(): void {
    const width = Math.max(...TUI_COMMANDS.map(([name]) => name.length));
    const lines = [
      "TUI commands:",
      ...TUI_COMMANDS.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`),
      "Any other /command (/status, /model, /think, /verbose, /reset, /stop, ...) is run by the gateway.",
      "Keys: Enter sends, Ctrl+J inserts a newline, Esc aborts the running reply, Ctrl+C clears the input (twice exits), Ctrl+D exits.",
      `Not supported here: ${NOT_SUPPORTED}.`,
    ];
    this.log.add("system", lines.join("\n"));
  }

  private async listAgents(): Promise<void> {
    const answer = await this.opts.connection.call<{ defaultId?: string; agents?: { id: string; name?: string }[] }>("agents.list", {});
    const rows = (answer.agents ?? []).map((agent) => {
      const marks = [agent.id === answer.defaultId ? "default" : "", agent.id === this.agentId ? "current" : ""].filter(Boolean);
      return `  ${agent.id}${agent.name && agent.name !== agent.id ? ` (${agent.name})` : ""}${marks.length ? ` [${marks.join(", ")}]` : ""}`;
    });
    this.log.add("system", ["agents (switch with /agent <id>):", ...rows].join("\n"));
  }

  private async switchAgent(id: string): Promise<void> {
    const answer = await this.opts.connection.call<{ agents?: { id: string }[] }>("agents.list", {});
    const known = (answer.agents ?? []).map((agent) => agent.id);
    if (!known.includes(id)) {
      this.log.add("error", `unknown agent "${id}"; the gateway's agents: ${known.join(", ")}`);
      return;
    }
    await this.switchSession(`agent:${id}:${this.opts.mainKey}`, `agent: ${id}`);
  }

  private async listSessions(): Promise<void> {
    const answer = await this.opts.connection.call<{ sessions?: { key: string; label?: string; updatedAt?: number }[] }>("sessions.list", {
      agentId: this.agentId,
      limit: 50,
    });
    const rows = (answer.sessions ?? []).map((row) => {
      const when = row.updatedAt ? new Date(row.updatedAt).toISOString().slice(0, 16).replace("T", " ") : "";
      return `  ${row.key}${row.label ? ` "${row.label}"` : ""}${when ? `  ${when}` : ""}${row.key === this.sessionKey ? "  [current]" : ""}`;
    });
    this.log.add("system", [`sessions of agent ${this.agentId} (switch with /session <key>):`, ...(rows.length ? rows : ["  none yet"])].join("\n"));
  }

  private async newSession(): Promise<void> {
    const created = await this.opts.connection.call<{ key: string }>("sessions.create", {
      key: `tui-${randomUUID()}`,
      agentId: this.agentId,
      parentSessionKey: this.sessionKey,
      succeedsParent: true,
      emitCommandHooks: true,
    });
    await this.switchSession(created.key, `new session: ${created.key}`);
  }

  /** Shows another session: its history replaces the log; runs of the old one are no longer followed. */
  private async switchSession(key: string, notice: string): Promise<void> {
    this.sessionKey = key;
    this.agentId = agentOfSessionKey(key) ?? this.agentId;
    await this.loadSession();
    this.log.add("system", notice);
  }

  /** The session's recent history and footer facts, from the gateway (at start, on a switch, after a reconnect or a reset). */
  private async loadSession(): Promise<void> {
    this.activeRuns.clear();
    this.activity = "loading history";
    this.lastError = "";
    this.screen.update();
    try {
      const history = await this.opts.connection.call<{
        sessionKey?: string;
        messages?: unknown[];
        thinkingLevel?: string;
        sessionInfo?: { activeRunIds?: string[] };
      }>("chat.history", { sessionKey: this.sessionKey, limit: this.opts.historyLimit });
      // The key as the gateway spells it: its events carry that spelling.
      if (typeof history.sessionKey === "string" && history.sessionKey) this.sessionKey = history.sessionKey;
      this.log.clear();
      for (const entry of historyEntries(history.messages ?? [])) this.log.add(entry.kind, entry.text);
      for (const runId of history.sessionInfo?.activeRunIds ?? []) this.activeRuns.add(runId);
      await this.follow(this.sessionKey);
      await this.refreshFacts(history.thinkingLevel);
    } catch (err) {
      this.showError(`loading the session failed: ${(err as Error).message}`);
    }
    this.activity = this.activeRuns.size > 0 ? "running" : "idle";
    this.screen.update();
  }

  /**
   * Follows the session's transcript so messages others send to it show up live. After a
   * reconnect the new connection follows nothing yet, so the current session is always asked for.
   */
  private async follow(sessionKey: string): Promise<void> {
    const previous = this.followed;
    this.followed = sessionKey;
    if (previous && previous !== sessionKey) await this.opts.connection.call("sessions.messages.unsubscribe", { key: previous }).catch(() => {});
    await this.opts.connection.call("sessions.messages.subscribe", { key: sessionKey });
  }

  private rememberSent(key: string): void {
    this.sentKeys.add(key);
    if (this.sentKeys.size > SENT_KEYS_KEPT) this.sentKeys.delete(this.sentKeys.values().next().value as string);
  }

  private async refreshFacts(historyThinking?: string): Promise<void> {
    try {
      const described = await this.opts.connection.call<{ session?: Record<string, unknown> | null }>("sessions.describe", { key: this.sessionKey });
      this.facts = sessionFacts(described.session, historyThinking ?? this.facts.thinking);
    } catch {
      // The footer keeps what it showed; the status line reports connection trouble.
    }
    this.screen.update();
  }

  private async send(text: string): Promise<void> {
    this.log.add("user", text);
    this.lastError = "";
    if (this.activity === "idle") this.activity = "sending";
    this.screen.update();
    let answer: Record<string, unknown>;
    const idempotencyKey = randomUUID();
    this.rememberSent(idempotencyKey);
    try {
      answer = await this.opts.connection.call<Record<string, unknown>>("chat.send", {
        sessionKey: this.sessionKey,
        message: text,
        deliver: this.opts.deliver,
        idempotencyKey,
      });
    } finally {
      this.settleSending();
    }
    if (answer.reset === true) {
      await this.loadSession();
      this.log.add("system", `session reset: ${this.sessionKey}`);
      return;
    }
    if (Array.isArray(answer.runIds) && "aborted" in answer) {
      this.log.add("system", answer.aborted ? `stopped ${answer.runIds.length} run(s)` : "nothing to stop");
      return;
    }
    if (answer.answered === true) {
      this.log.add("system", String(answer.reply ?? "answer sent"));
      return;
    }
    // A chat command's answer comes as its own chat event; a message's run streams under its id.
    if (answer.command === undefined && typeof answer.runId === "string" && (answer.status === "started" || answer.status === "in_flight")) {
      if (!this.log.hasEnded(answer.runId)) {
        this.activeRuns.add(answer.runId);
        this.settleSending();
      }
    }
    if (typeof answer.queued === "string") this.log.add("system", `queued (${answer.queued}): it runs after the current reply`);
  }

  private async abort(): Promise<void> {
    this.activity = "aborting";
    this.screen.update();
    const answer = await this.opts.connection.call<{ aborted?: boolean; runIds?: string[] }>("chat.abort", { sessionKey: this.sessionKey });
    if (!answer.aborted) {
      this.log.add("system", "nothing to abort");
      this.activeRuns.clear();
      this.activity = "idle";
    }
    this.screen.update();
  }

  private onChatEvent(event: Record<string, unknown>): void {
    if (event.state === "notice") {
      // A queued message dropped or summarized, a compaction: the gateway's own words.
      if (typeof event.text === "string" && event.text) this.log.add("system", event.text);
      this.screen.update();
      return;
    }
    const runId = typeof event.runId === "string" ? event.runId : "";
    if (!runId) return;
    switch (event.state) {
      case "delta": {
        this.activeRuns.add(runId);
        this.activity = "streaming";
        const full = event.message ? messageText(event.message) : undefined;
        if (full !== undefined && !event.replace) this.log.streamText(runId, full);
        else this.log.streamDelta(runId, typeof event.deltaText === "string" ? event.deltaText : "", event.replace === true);
        break;
      }
      case "final": {
        const text = event.message ? messageText(event.message) : undefined;
        if ((event.message as { command?: unknown } | undefined)?.command === true) {
          if (this.log.finish(runId) && text) this.log.add("system", text);
        } else this.log.finish(runId, text);
        this.runEnded(runId);
        break;
      }
      case "aborted":
        this.log.finish(runId, event.message ? messageText(event.message) : undefined);
        this.log.add("system", event.stopReason === "restart" ? "the gateway restarted before the reply finished" : "reply aborted");
        this.runEnded(runId);
        break;
      case "error": {
        this.log.finish(runId, event.message ? messageText(event.message) : undefined);
        const message = typeof event.errorMessage === "string" ? event.errorMessage : "the run failed";
        this.runEnded(runId);
        this.showError(message);
        break;
      }
    }
    this.screen.update();
  }

  private onAgentEvent(event: Record<string, unknown>): void {
    const data = (event.data ?? {}) as Record<string, unknown>;
    const runId = typeof event.runId === "string" ? event.runId : "";
    if (event.stream === "lifecycle" && data.phase === "start" && runId && !this.log.hasEnded(runId)) {
      this.activeRuns.add(runId);
      if (this.activity === "idle" || this.activity === "sending") this.activity = "running";
    } else if (event.stream === "tool" && typeof data.toolCallId === "string") {
      if (data.phase === "start") this.log.toolStarted(data.toolCallId, toolCallLine(String(data.name ?? "tool"), data.args));
      else if (data.phase === "result") this.log.toolEnded(data.toolCallId, data.isError ? "(failed)" : "(done)");
    } else return;
    this.screen.update();
  }

  /** After chat.send answered: running while a run of the session is open, else idle (a streaming state stays). */
  private settleSending(): void {
    if (this.activity === "sending" || this.activity === "idle") this.activity = this.activeRuns.size > 0 ? "running" : "idle";
  }

  private runEnded(runId: string): void {
    this.activeRuns.delete(runId);
    if (this.activeRuns.size === 0) this.activity = "idle";
    void this.refreshFacts();
  }

  private showError(message: string): void {
    this.lastError = message;
    this.log.add("error", message);
    this.screen.update();
  }
}
