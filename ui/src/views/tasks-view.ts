import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { ClientEvents } from "./client-events.js";
import { call, errorBox, formatTime, unavailable, readOnlyLine } from "../view-helpers.js";
import { rememberChatSession } from "../chat-session-store.js";
import {
  isActive,
  type StatusFilter,
  statusesFor,
  TASK_RUNTIMES,
  type TaskEvent,
  taskDuration,
  taskMatches,
  taskStatusBadge,
  type TaskSummary,
  upsertTask,
} from "./task-record.js";

const LIST_LIMIT = 200;
const FILTERS: readonly { id: StatusFilter; label: string }[] = [
  { id: "active", label: "Active" },
  { id: "finished", label: "Finished" },
  { id: "all", label: "All" },
];

/**
 * Background tasks: the newest from tasks.list (filtered by status and runtime), kept live by
 * `task` events; Cancel on a running one (tasks.cancel, for a connection with operator.write), and
 * one task's details (tasks.get).
 */
export class TasksView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    rows: { state: true },
    statusFilter: { state: true },
    runtime: { state: true },
    error: { state: true },
    notice: { state: true },
    missing: { state: true },
    detail: { state: true },
    detailError: { state: true },
    cancelling: { state: true },
    now: { state: true },
  };
  declare rows: TaskSummary[];
  declare statusFilter: StatusFilter;
  /** A runtime to show alone; "" shows every runtime. */
  declare runtime: string;
  declare error: string | undefined;
  declare notice: string | undefined;
  declare missing: boolean;
  /** The task opened for details (tasks.get's answer, with its text). */
  declare detail: TaskSummary | undefined;
  declare detailError: string | undefined;
  /** Tasks whose cancel is in flight. */
  declare cancelling: ReadonlySet<string>;
  /** The clock running tasks' elapsed time is shown against. */
  declare now: number;
  private readonly events = new ClientEvents((event, payload) => this.onEvent(event, payload as TaskEvent));
  private clock: ReturnType<typeof setInterval> | undefined;
  /** Lists in flight are numbered: only the newest one's answer is shown. */
  private listings = 0;
  /** Events that came while a list was asked for: applied on top of its answer, which may predate them. */
  private eventsDuringListing: TaskEvent[] | undefined;

  constructor() {
    super();
    this.rows = [];
    this.statusFilter = "all";
    this.runtime = "";
    this.missing = false;
    this.cancelling = new Set();
    this.now = Date.now();
  }

  connectedCallback(): void {
    super.connectedCallback();
    // Running tasks' elapsed time moves on each second.
    this.clock = setInterval(() => {
      if (this.rows.some(isActive)) this.now = Date.now();
    }, 1000);
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.clock);
    this.events.release();
  }

  protected async load(): Promise<void> {
    this.events.follow(this.client);
    const listing = ++this.listings;
    this.eventsDuringListing = [];
    const statuses = statusesFor(this.statusFilter);
    const res = await call<{ tasks: TaskSummary[] }>(this.client, "tasks.list", {
      limit: LIST_LIMIT,
      ...(statuses ? { status: statuses } : {}),
      ...(this.runtime ? { runtime: this.runtime } : {}),
    });
    if (listing !== this.listings) return;
    this.missing = !res.ok && res.unavailable;
    this.now = Date.now();
    const missed = this.eventsDuringListing ?? [];
    this.eventsDuringListing = undefined;
    if (res.ok) {
      this.rows = res.value.tasks;
      this.error = undefined;
    } else if (!res.unavailable) this.error = res.message;
    for (const payload of missed) this.apply(payload);
  }

  private onEvent(event: string, payload: TaskEvent): void {
    if (event !== "task" || !payload) return;
    this.eventsDuringListing?.push(payload);
    this.apply(payload);
  }

  private apply(payload: TaskEvent): void {
    if (payload.action === "restored") {
      void this.load();
      return;
    }
    if (payload.action === "deleted") {
      this.rows = this.rows.filter((row) => row.taskId !== payload.taskId);
      return;
    }
    if (payload.action !== "upserted" || !payload.task?.taskId) return;
    const task = payload.task;
    this.now = Date.now();
    this.rows = upsertTask(this.rows, task, taskMatches(task, this.statusFilter, this.runtime));
    // The open task keeps its text (the event does not carry it) and takes the rest, unless this copy is older.
    const open = this.detail;
    if (open?.taskId === task.taskId && upsertTask([open], task, true)[0] === task) this.detail = { ...task, prompt: open.prompt };
  }

  private filter(change: { statusFilter?: StatusFilter; runtime?: string }): void {
    if (change.statusFilter !== undefined) this.statusFilter = change.statusFilter;
    if (change.runtime !== undefined) this.runtime = change.runtime;
    void this.load();
  }

  private async open(task: TaskSummary): Promise<void> {
    this.detailError = undefined;
    const res = await call<{ task: TaskSummary }>(this.client, "tasks.get", { taskId: task.taskId });
    if (res.ok) this.detail = res.value.task;
    else this.detailError = res.message;
    await this.updateComplete;
    this.querySelector<HTMLElement>(".task-detail h3")?.focus();
  }

  private async cancel(task: TaskSummary): Promise<void> {
    this.cancelling = new Set([...this.cancelling, task.taskId]);
    this.notice = undefined;
    this.error = undefined;
    const res = await call<{ found: boolean; cancelled: boolean; reason?: string; task?: TaskSummary }>(this.client, "tasks.cancel", { taskId: task.taskId });
    this.cancelling = new Set([...this.cancelling].filter((id) => id !== task.taskId));
    if (!res.ok) {
      this.error = res.message;
      return;
    }
    if (res.value.task) this.apply({ action: "upserted", task: res.value.task });
    if (res.value.cancelled) this.notice = `Cancelled ${task.title}.`;
    else this.error = `Not cancelled: ${res.value.reason ?? "the gateway gave no reason"}`;
  }

  private openInChat(sessionKey: string): void {
    rememberChatSession(sessionKey);
    window.location.hash = "#/chat";
  }

  protected render() {
    if (this.missing) return html`<section aria-label="Tasks"><h2>Tasks</h2>${unavailable("tasks.list")}</section>`;
    return html`<section aria-label="Tasks">
      <h2>Tasks</h2>
      ${this.renderDetail()}
      <form class="inline task-filter" @submit=${(e: Event) => e.preventDefault()}>
        <label>Status <select name="status" @change=${(e: Event) => this.filter({ statusFilter: (e.target as HTMLSelectElement).value as StatusFilter })}>
          ${FILTERS.map((f) => html`<option value=${f.id} ?selected=${f.id === this.statusFilter}>${f.label}</option>`)}
        </select></label>
        <label>Runtime <select name="runtime" @change=${(e: Event) => this.filter({ runtime: (e.target as HTMLSelectElement).value })}>
          <option value="" ?selected=${this.runtime === ""}>all</option>
          ${TASK_RUNTIMES.map((r) => html`<option value=${r} ?selected=${r === this.runtime}>${r}</option>`)}
        </select></label>
        <button type="button" @click=${() => void this.load()}>Refresh</button>
      </form>
      ${errorBox(this.error)} ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${this.client.grantsScopeOf("tasks.cancel") ? nothing : readOnlyLine("Read-only: cancelling a task needs operator.write.")}
      ${this.renderList()}
      ${this.rows.length === 0 && !this.error ? html`<p class="hint">No ${this.statusFilter === "all" ? "" : `${this.statusFilter} `}tasks.</p>` : nothing}
    </section>`;
  }

  private renderList() {
    if (this.rows.length === 0) return nothing;
    const canCancel = this.client.may("tasks.cancel");
    return html`<div class="table-wrap">
      <table class="task-list">
        <thead><tr><th>Status</th><th>Runtime</th><th>Agent</th><th>Task</th><th>Started</th><th>Duration</th><th>Session</th><th></th></tr></thead>
        <tbody>
          ${this.rows.map(
            (task) => html`<tr data-task=${task.taskId} aria-current=${task.taskId === this.detail?.taskId ? "true" : "false"} @click=${(e: Event) => this.rowClicked(e, task)}>
              <td>${taskStatusBadge(task)}</td>
              <td>${task.runtime}</td>
              <td>${task.agentId}</td>
              <td><button type="button" class="link task-title" title="Show details">${task.title}</button></td>
              <td>${formatTime(task.startedAt ?? task.createdAt)}</td>
              <td>${taskDuration(task, this.now)}</td>
              <td><span class="key">${task.childSessionKey ?? task.sessionKey ?? "—"}</span></td>
              <td>
                ${
                  canCancel && isActive(task)
                    ? html`<button type="button" class="danger cancel" ?disabled=${this.cancelling.has(task.taskId)} @click=${() => void this.cancel(task)}>
                        ${this.cancelling.has(task.taskId) ? "Cancelling…" : "Cancel"}
                      </button>`
                    : nothing
                }
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  /** A click anywhere on a row opens its details, except on its Cancel button. */
  private rowClicked(event: Event, task: TaskSummary): void {
    if ((event.target as HTMLElement).closest("button.cancel")) return;
    void this.open(task);
  }

  private renderDetail() {
    if (this.detailError) return errorBox(this.detailError);
    const task = this.detail;
    if (!task) return nothing;
    return html`<article class="task-detail card" data-task=${task.taskId}>
      <h3 tabindex="-1">${task.title}</h3>
      <dl>
        <dt>Status</dt><dd>${taskStatusBadge(task)}</dd>
        <dt>Runtime</dt><dd>${task.runtime}</dd>
        <dt>Agent</dt><dd>${task.agentId}</dd>
        <dt>Task</dt><dd><pre class="task-text">${task.prompt ?? "—"}</pre></dd>
        ${task.error ? html`<dt>Error</dt><dd class="error">${task.error}</dd>` : nothing}
        ${task.terminalSummary ? html`<dt>Result</dt><dd class="task-result">${task.terminalSummary}</dd>` : nothing}
        <dt>Run</dt><dd><span class="key">${task.runId}</span></dd>
        ${task.sourceId ? html`<dt>Cron job</dt><dd><span class="key">${task.sourceId}</span></dd>` : nothing}
        ${task.sessionKey ? html`<dt>Started by</dt><dd><span class="key">${task.sessionKey}</span></dd>` : nothing}
        ${
          task.childSessionKey
            ? html`<dt>Runs in</dt><dd><span class="key">${task.childSessionKey}</span>
                <button type="button" class="link open-chat" @click=${() => this.openInChat(task.childSessionKey!)}>Open in Chat</button></dd>`
            : nothing
        }
        <dt>Started</dt><dd>${formatTime(task.startedAt ?? task.createdAt)}</dd>
        <dt>Ended</dt><dd>${formatTime(task.endedAt)}</dd>
        <dt>Duration</dt><dd>${taskDuration(task, this.now)}</dd>
      </dl>
      <button type="button" @click=${() => (this.detail = undefined)}>Close</button>
    </article>`;
  }
}

customElements.define("oc-tasks-view", TasksView);
