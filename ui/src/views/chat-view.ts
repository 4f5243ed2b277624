import { html, nothing } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { ViewElement } from "./view-element.js";
import { renderLive, renderMessage, type ChatMessage, type LiveTool } from "./chat-message.js";
import { errorBox, readOnlyLine, unavailable } from "../view-helpers.js";
import { randomId } from "../ids.js";
import "./question-panel.js";
import "./progress-card-panel.js";
import "./goal-pill.js";
import { ClientEvents } from "./client-events.js";
import { rememberChatSession, rememberedChatSession } from "../chat-session-store.js";
import { replyRuns } from "./reply-runs.js";
import "./run-feedback.js";

/** Messages added to the page per "Show older messages". */
const PAGE = 50;
/** A message's own echo arrives within its turn: the last few keys are enough to recognise it. */
const SENT_KEYS_KEPT = 64;
/** Messages asked of chat.history per request: the newest on open, then older pages by offset. */
const FETCH = 200;
interface PickedFile {
  name: string;
  mimeType: string;
  /** The file's bytes, base64. */
  content: string;
}

async function readPicked(file: File): Promise<PickedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name, mimeType: file.type, content: btoa(binary) };
}

interface LiveRun {
  text: string;
  tools: LiveTool[];
}

/** A `chat` or `agent` event of a run, as the chat view reads it. */
interface RunEventPayload {
  sessionKey?: string;
  runId: string;
  state?: string;
  stream?: string;
  replace?: boolean;
  deltaText?: string;
  errorMessage?: string;
  message?: { content?: { type: string; text?: string }[] | string };
  data?: { phase?: string; name?: string; toolCallId?: string; args?: unknown; result?: unknown; isError?: boolean };
}

/**
 * WebChat: one session's transcript, newest last, with the answer streaming in below it. The
 * transcript is the gateway's (chat.history); a live run shows only until its final event, then
 * the transcript is read again, so a reconnect or a repeated event never shows a message twice.
 */
export class ChatView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    sessionKey: { state: true },
    sessions: { state: true },
    messages: { state: true },
    visible: { state: true },
    live: { state: true },
    error: { state: true },
    notice: { state: true },
    busy: { state: true },
    hasOlder: { state: true },
    reasoningLevel: { state: true },
    attached: { state: true },
    following: { state: true },
  };
  declare sessionKey: string;
  declare sessions: { key: string; label?: string; displayName?: string }[];
  declare messages: ChatMessage[];
  declare visible: number;
  declare live: Map<string, LiveRun>;
  declare error: string | undefined;
  /** A chat command's answer (/status, /help …): shown above the composer, not part of the transcript. */
  declare notice: string | undefined;
  declare busy: boolean;
  /** Files picked for the next message, sent as `chat.send` attachments. */
  declare attached: PickedFile[];
  /** The gateway has messages older than the oldest loaded one. */
  declare hasOlder: boolean;
  /** The session's `/reasoning` level (chat.history's): the model's saved reasoning is shown only when it is `on`. */
  declare reasoningLevel: string | undefined;
  private loadingOlder = false;
  /** The session whose transcript this view asked to follow (`sessions.messages.subscribe`). */
  private followed: string | undefined;
  /** The session the gateway confirmed this view follows (shown as the chat's `data-following`). */
  declare following: string | undefined;
  /** Keys of the messages this view sent: their `session.message` echo is already on screen. */
  private readonly sentKeys = new Set<string>();
  private readonly events = new ClientEvents((event, payload) => this.onEvent(event, payload));

  constructor() {
    super();
    this.sessionKey = "";
    this.sessions = [];
    this.messages = [];
    this.visible = PAGE;
    this.live = new Map();
    this.busy = false;
    this.attached = [];
    this.hasOlder = false;
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.events.release();
  }

  protected async load(): Promise<void> {
    this.events.follow(this.client);
    if (!this.sessionKey) {
      this.sessionKey = rememberedChatSession() ?? this.client.hello?.snapshot.sessionDefaults?.mainSessionKey ?? "main";
    }
    // Runs that ended while the link was down send no more events: start clean, read the transcript.
    this.live = new Map();
    this.followed = undefined;
    this.following = undefined;
    await Promise.all([this.loadSessions(), this.loadHistory()]);
  }

  private async loadSessions(): Promise<void> {
    try {
      const res = await this.client.request<{ sessions: { key: string; label?: string; displayName?: string }[] }>("sessions.list", { limit: 200 });
      this.sessions = res.sessions;
    } catch (err) {
      this.error = `sessions.list failed: ${(err as Error).message}`;
    }
  }

  /**
   * Reads the newest page and joins it to what is loaded: older pages the user opened stay,
   * everything from the page's first message on is replaced by the gateway's copy.
   */
  private async loadHistory(): Promise<void> {
    const key = this.sessionKey;
    try {
      const res = await this.client.request<{ sessionKey: string; messages: ChatMessage[]; hasMore?: boolean; reasoningLevel?: string }>("chat.history", {
        sessionKey: key,
        limit: FETCH,
      });
      if (key !== this.sessionKey) return;
      this.sessionKey = res.sessionKey;
      this.reasoningLevel = res.reasoningLevel;
      void this.follow(res.sessionKey);
      const firstId = res.messages[0]?.__openclaw?.id;
      const joinAt = firstId ? this.messages.findIndex((m) => m.__openclaw?.id === firstId) : -1;
      if (joinAt >= 0) this.messages = [...this.messages.slice(0, joinAt), ...res.messages];
      else {
        this.messages = res.messages;
        this.hasOlder = res.hasMore === true;
      }
      this.error = undefined;
      this.scrollToEnd();
    } catch (err) {
      this.error = `chat.history failed: ${(err as Error).message}`;
    }
  }

  /** The page before the oldest loaded message (offset = messages loaded, counted from the newest). */
  private async loadOlder(): Promise<void> {
    const key = this.sessionKey;
    this.loadingOlder = true;
    try {
      const res = await this.client.request<{ messages: ChatMessage[]; hasMore?: boolean }>("chat.history", { sessionKey: key, limit: FETCH, offset: this.messages.length });
      if (key !== this.sessionKey) return;
      const loaded = new Set(this.messages.map((m) => m.__openclaw?.id).filter(Boolean));
      this.messages = [...res.messages.filter((m) => !m.__openclaw?.id || !loaded.has(m.__openclaw.id)), ...this.messages];
      this.hasOlder = res.hasMore === true;
    } catch (err) {
      this.error = `chat.history failed: ${(err as Error).message}`;
    } finally {
      this.loadingOlder = false;
    }
  }

  private onEvent(event: string, raw: unknown): void {
    const payload = raw as RunEventPayload | undefined;
    if (!payload || payload.sessionKey !== this.sessionKey) return;
    if (event === "chat") this.onChat(payload);
    else if (event === "session.message") this.onSessionMessage(raw as { message?: ChatMessage & { idempotencyKey?: string } });
    else if (event === "agent" && payload.stream === "tool") this.onTool(payload.runId, payload.data ?? {});
    else if (event === "agent" && payload.stream === "lifecycle" && payload.data?.phase === "start") this.runOf(payload.runId);
  }

  /**
   * Follows the session's transcript, so a message another client or a chat sends to it shows
   * as it arrives. A new connection follows nothing yet, so `load` forgets what the last one did.
   */
  private async follow(sessionKey: string): Promise<void> {
    const previous = this.followed;
    if (previous === sessionKey) return;
    this.followed = sessionKey;
    try {
      if (previous && previous !== sessionKey) await this.client.request("sessions.messages.unsubscribe", { key: previous });
      await this.client.request("sessions.messages.subscribe", { key: sessionKey });
      if (this.followed === sessionKey) this.following = sessionKey;
    } catch (err) {
      this.error = `sessions.messages.subscribe failed: ${(err as Error).message}`;
    }
  }

  /** Another client's user message joins the transcript at once (its run's reply streams as any run's does). */
  private onSessionMessage(payload: { message?: ChatMessage & { idempotencyKey?: string } }): void {
    const message = payload.message;
    if (message?.role !== "user" || (message.idempotencyKey && this.sentKeys.has(message.idempotencyKey))) return;
    const id = message.__openclaw?.id;
    if (id && this.messages.some((m) => m.__openclaw?.id === id)) return;
    this.messages = [...this.messages, message];
    this.scrollToEnd();
  }

  private onChat(payload: RunEventPayload): void {
    const runId = payload.runId;
    if (payload.state === "delta") {
      const run = this.runOf(runId);
      const content = payload.message?.content;
      const cumulative = Array.isArray(content) ? content.find((b) => b.type === "text")?.text : undefined;
      // The cumulative text is the truth; it also heals a stream joined half-way after a reconnect.
      run.text = typeof cumulative === "string" ? cumulative : payload.replace ? (payload.deltaText ?? "") : run.text + (payload.deltaText ?? "");
      this.live = new Map(this.live);
      this.scrollToEnd();
      return;
    }
    this.live.delete(runId);
    this.live = new Map(this.live);
    if (payload.state === "error") this.error = `The run failed: ${payload.errorMessage ?? "unknown error"}`;
    void this.loadHistory();
  }

  private onTool(runId: string, data: { phase?: string; name?: string; toolCallId?: string; args?: unknown; result?: unknown; isError?: boolean }): void {
    const run = this.runOf(runId);
    const id = data.toolCallId ?? "";
    const existing = run.tools.find((t) => t.toolCallId === id);
    if (data.phase === "start" && !existing) run.tools.push({ toolCallId: id, name: data.name ?? "tool", args: data.args, done: false });
    if (data.phase === "result") {
      const tool = existing ?? { toolCallId: id, name: data.name ?? "tool", done: false };
      Object.assign(tool, { result: data.result, isError: data.isError, done: true });
      if (!existing) run.tools.push(tool);
    }
    this.live = new Map(this.live);
  }

  private runOf(runId: string): LiveRun {
    let run = this.live.get(runId);
    if (!run) {
      run = { text: "", tools: [] };
      this.live.set(runId, run);
      this.live = new Map(this.live);
    }
    return run;
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem("message") as HTMLTextAreaElement;
    const message = input.value;
    const attached = this.attached;
    if (!message.trim() && attached.length === 0) return;
    this.busy = true;
    try {
      const attachments = attached.map(({ name, mimeType, content }) => ({ type: mimeType.startsWith("image/") ? "image" : "file", mimeType, fileName: name, content }));
      const idempotencyKey = randomId();
      this.sentKeys.add(idempotencyKey);
      if (this.sentKeys.size > SENT_KEYS_KEPT) this.sentKeys.delete(this.sentKeys.values().next().value as string);
      const res = await this.client.request<{ runId?: string; status?: string; reply?: string }>("chat.send", {
        sessionKey: this.sessionKey,
        message,
        idempotencyKey,
        ...(attachments.length > 0 ? { attachments } : {}),
      });
      input.value = "";
      this.attached = [];
      this.error = undefined;
      this.notice = res.reply;
      // Commands (/new, /status…) answer at once and start no run.
      if (res.status !== "started") void this.loadHistory();
      else {
        const names = attached.map((file) => `📎 ${file.name}`);
        this.messages = [...this.messages, { role: "user", content: [{ type: "text", text: [message, ...names].filter(Boolean).join("\n") }], timestamp: Date.now() }];
        if (res.runId) this.runOf(res.runId);
        this.scrollToEnd();
      }
    } catch (err) {
      this.error = `Not sent: ${(err as Error).message}`;
    } finally {
      this.busy = false;
    }
  }

  /** Reads the picked files for the next message. */
  private async pickFiles(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = "";
    this.attached = [...this.attached, ...(await Promise.all(files.map(readPicked)))];
  }

  private unattach(index: number): void {
    this.attached = this.attached.filter((_, i) => i !== index);
  }

  private async abort(): Promise<void> {
    try {
      await this.client.request("chat.abort", { sessionKey: this.sessionKey });
    } catch (err) {
      this.error = `chat.abort failed: ${(err as Error).message}`;
    }
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      (event.target as HTMLTextAreaElement).form?.requestSubmit();
    }
  }

  private pick(event: Event): void {
    this.switchTo((event.target as HTMLSelectElement).value);
  }

  private newSession(): void {
    const agentId = this.client.hello?.snapshot.sessionDefaults?.defaultAgentId ?? "main";
    this.switchTo(`agent:${agentId}:webchat-${Date.now().toString(36)}`);
  }

  private switchTo(key: string): void {
    this.sessionKey = key;
    rememberChatSession(key);
    this.messages = [];
    this.hasOlder = false;
    this.live = new Map();
    this.visible = PAGE;
    void this.loadHistory();
  }

  /** One more page on screen, read from the gateway first when all loaded ones already show; the view keeps its place. */
  private async showOlder(): Promise<void> {
    if (this.loadingOlder) return;
    const log = this.querySelector(".transcript");
    const fromBottom = log ? log.scrollHeight - log.scrollTop : 0;
    if (this.visible + PAGE > this.messages.length && this.hasOlder) await this.loadOlder();
    this.visible += PAGE;
    await this.updateComplete;
    if (log) log.scrollTop = log.scrollHeight - fromBottom;
  }

  private scrollToEnd(): void {
    void this.updateComplete.then(() => {
      const log = this.querySelector(".transcript");
      if (log) log.scrollTop = log.scrollHeight;
    });
  }

  /** Attached files and the message box; Stop only where the connection may abort (both need operator.write). */
  private renderComposer() {
    return html`${
      this.attached.length > 0
        ? html`<ul class="attached" aria-label="Attached files">
              ${this.attached.map(
                (file, i) => html`<li>📎 ${file.name} <button type="button" aria-label=${`Remove ${file.name}`} @click=${() => this.unattach(i)}>×</button></li>`,
              )}
            </ul>`
        : nothing
    }
      <form class="composer" @submit=${this.send}>
        <label class="visually-hidden" for="chat-input">Message</label>
        <textarea id="chat-input" name="message" rows="2" placeholder="Message (Enter sends, Shift+Enter for a new line)" @keydown=${this.onKey}></textarea>
        <label class="attach" title="Attach files">📎<span class="visually-hidden">Attach files</span>
          <input type="file" class="visually-hidden" name="files" multiple @change=${this.pickFiles} />
        </label>
        <button type="submit" ?disabled=${this.busy}>Send</button>
        ${this.client.may("chat.abort") ? html`<button type="button" class="danger" ?disabled=${this.live.size === 0} @click=${this.abort}>Stop</button>` : nothing}
      </form>`;
  }

  protected render() {
    const shown = this.messages.slice(-this.visible);
    const runs = replyRuns(this.messages);
    const hidden = this.messages.length - shown.length;
    const keys = this.sessions.some((s) => s.key === this.sessionKey) ? this.sessions : [{ key: this.sessionKey }, ...this.sessions];
    return html`<section class="chat" aria-label="Chat" data-following=${this.following ?? ""}>
      <div class="toolbar">
        <label for="session-pick">Session</label>
        <select id="session-pick" @change=${this.pick} .value=${this.sessionKey}>
          ${keys.map((s) => html`<option value=${s.key} ?selected=${s.key === this.sessionKey}>${"label" in s && s.label ? `${s.label} (${s.key})` : s.key}</option>`)}
        </select>
        ${this.client.may("chat.send") ? html`<button type="button" @click=${this.newSession}>New session</button>` : nothing}
      </div>
      ${errorBox(this.error)}
      <div class="transcript" role="log" aria-label="Transcript" tabindex="0">
        ${
          hidden > 0 || this.hasOlder
            ? html`<button type="button" class="older" @click=${this.showOlder}>Show older messages${hidden > 0 ? ` (${hidden} more loaded)` : ""}</button>`
            : nothing
        }
        ${repeat(
          shown,
          (m, i) => m.__openclaw?.id ?? `at-${this.messages.length - shown.length + i}`,
          (m) => {
            const runId = runs.get(m);
            const rating = runId ? html`<oc-run-feedback .client=${this.client} .runId=${runId}></oc-run-feedback>` : undefined;
            return renderMessage(m, { showThinking: this.reasoningLevel === "on", ...(rating ? { rating } : {}) });
          },
        )}
        ${[...this.live.entries()].map(([, run]) => renderLive(run.text, run.tools))}
      </div>
      ${this.notice ? html`<pre class="notice command-reply" role="status">${this.notice}</pre>` : nothing}
      <oc-goal-pill .client=${this.client} .generation=${this.generation} .sessionKey=${this.sessionKey}></oc-goal-pill>
      <oc-progress-card-panel .client=${this.client} .generation=${this.generation} .sessionKey=${this.sessionKey}></oc-progress-card-panel>
      <oc-question-panel .client=${this.client} .generation=${this.generation} .sessionKey=${this.sessionKey}></oc-question-panel>
      ${this.client.may("chat.send") ? this.renderComposer() : this.client.grantsScopeOf("chat.send") ? unavailable("chat.send") : readOnlyLine("Read-only: sending messages needs operator.write.")}
    </section>`;
  }
}

customElements.define("oc-chat-view", ChatView);
