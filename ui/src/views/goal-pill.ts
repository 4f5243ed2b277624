import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { GatewayClient } from "../gateway-client.js";
import { randomId } from "../ids.js";
import { ClientEvents } from "./client-events.js";
import { GOAL_STATUS_ICON, GOAL_STATUS_LABEL, goalElapsed, goalTokens, type GoalStatus } from "./goal-labels.js";

interface SessionGoal {
  id: string;
  objective: string;
  status: GoalStatus;
  createdAt: number;
  updatedAt: number;
  tokensUsed: number;
  tokenBudget?: number;
  lastStatusNote?: string;
  pausedAt?: number;
  blockedAt?: number;
  completedAt?: number;
  budgetLimitedAt?: number;
}

/**
 * The session's goal as a compact pill above the chat's composer (OpenClaw's): a status icon and
 * label (the status note on hover or focus), the objective cut to one line, tokens, the elapsed
 * time (live while pursued), and Edit (the objective only), Pause/Resume and Clear, which send
 * `sessions.goal.update` / `sessions.goal.clear` aimed at the goal shown (a replaced goal refuses
 * a stale button; Resume also starts the goal's continuation turn, whose reply the chat shows as
 * any run's, and a busy session's refusal shows here). The chevron opens the full objective,
 * the last status note and the tokens. Read from the
 * session's row (`sessions.describe`) when the session or the link changes, and taken from every
 * `sessions.changed` for the session (each carries its goal). All text is bound as text, never as HTML.
 */
export class GoalPill extends LitElement {
  static properties = {
    client: { attribute: false },
    sessionKey: {},
    generation: { type: Number },
    goal: { state: true },
    problem: { state: true },
    pending: { state: true },
    expanded: { state: true },
    editing: { state: true },
    now: { state: true },
  };
  declare client: GatewayClient | undefined;
  declare sessionKey: string;
  /** Bumped by the app on each hello-ok: the goal is read again. */
  declare generation: number;
  declare goal: SessionGoal | null;
  declare problem: string | undefined;
  declare pending: boolean;
  /** The chevron's details (full objective, note, tokens) are open. */
  declare expanded: boolean;
  /** The Edit form is open with this draft objective; undefined when closed. */
  declare editing: string | undefined;
  /** The clock the elapsed time is shown at, moved on every second while a goal is pursued. */
  declare now: number;
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** The session's canonical key, as sessions.changed names it. */
  private canonicalKey = "";
  private readonly events = new ClientEvents((event, payload) => this.onEvent(event, payload as { sessionKey?: string; goal?: SessionGoal | null }));
  private reads = 0;

  constructor() {
    super();
    this.sessionKey = "";
    this.generation = 0;
    this.goal = null;
    this.pending = false;
    this.expanded = false;
    this.now = Date.now();
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.events.release();
    this.tick(false);
  }

  /** The elapsed time runs while an active goal is shown; any other status shows it frozen. */
  private tick(on: boolean): void {
    if (on && !this.ticker) this.ticker = setInterval(() => (this.now = Date.now()), 1000);
    if (!on && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  protected updated(changed: PropertyValues): void {
    if (changed.has("goal")) {
      this.now = Date.now();
      this.tick(this.goal?.status === "active");
      if (this.editing !== undefined && !this.goal) this.editing = undefined;
    }
    if (!this.client?.hello || !(changed.has("client") || changed.has("sessionKey") || changed.has("generation"))) return;
    this.events.follow(this.client);
    if (changed.has("sessionKey")) {
      this.goal = null;
      this.canonicalKey = "";
    }
    // sessions.changed reaches only connections that subscribed; asking again is harmless.
    if (this.client.has("sessions.subscribe")) void this.client.request("sessions.subscribe", {}).catch(() => undefined);
    void this.load();
  }

  private onEvent(event: string, payload: { sessionKey?: string; goal?: SessionGoal | null }): void {
    if (event !== "sessions.changed" || !payload?.sessionKey || payload.goal === undefined) return;
    if (payload.sessionKey === this.canonicalKey || payload.sessionKey === this.sessionKey) this.goal = payload.goal;
  }

  private async load(): Promise<void> {
    if (!this.client?.has("sessions.describe") || !this.sessionKey) return;
    const key = this.sessionKey;
    const read = ++this.reads;
    try {
      const res = await this.client.request<{ session: { key: string; goal?: SessionGoal } | null }>("sessions.describe", { key });
      if (read !== this.reads || key !== this.sessionKey) return;
      this.canonicalKey = res.session?.key ?? "";
      this.goal = res.session?.goal ?? null;
      this.problem = undefined;
    } catch (err) {
      if (read === this.reads) this.problem = `sessions.describe failed: ${(err as Error).message}`;
    }
  }

  /** Saves the Edit form's objective (only the objective changes); an empty one is not sent. */
  private async saveEdit(): Promise<void> {
    const objective = this.editing?.trim();
    if (!objective) return;
    await this.control("sessions.goal.update", { action: "edit", objective });
    if (!this.problem) this.editing = undefined;
  }

  /** One goal control for the goal shown; the answer's goal replaces it (null once cleared). */
  private async control(method: "sessions.goal.update" | "sessions.goal.clear", fields: Record<string, unknown>): Promise<void> {
    const goal = this.goal;
    if (!this.client || !goal || this.pending) return;
    this.pending = true;
    try {
      const res = await this.client.request<{ goal?: SessionGoal }>(method, {
        sessionKey: this.canonicalKey || this.sessionKey,
        goalId: goal.id,
        operationId: randomId(),
        issuedAtMs: Date.now(),
        ...fields,
      });
      this.goal = res.goal ?? null;
      this.problem = undefined;
    } catch (err) {
      this.problem = `${method} failed: ${(err as Error).message}`;
    } finally {
      this.pending = false;
    }
  }

  protected render() {
    const goal = this.goal;
    if (!goal) return this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing;
    const connected = Boolean(this.client?.hello) && !this.pending;
    // Edit, Pause, Resume and Clear need operator.write: a read-only connection sees the goal only.
    const canUpdate = Boolean(this.client?.may("sessions.goal.update"));
    const pausable = canUpdate && goal.status === "active";
    const resumable = canUpdate && goal.status !== "active" && goal.status !== "complete";
    return html`<section class=${`goal-pill ${goal.status}`} aria-label="Session goal" data-testid="goal-pill" data-status=${goal.status}>
      <div class="goal-row">
        <span class="icon" aria-hidden="true">${GOAL_STATUS_ICON[goal.status]}</span>
        <strong class="label" tabindex="0" title=${goal.lastStatusNote ?? ""}>${GOAL_STATUS_LABEL[goal.status]}</strong>
        <span class="objective" data-testid="goal-objective">${goal.objective}</span>
        <span class="tokens" title=${goal.tokenBudget !== undefined ? "tokens used / budget" : "tokens used"}>${goalTokens(goal)}</span>
        <time class="elapsed" data-testid="goal-elapsed" title="time since the goal started">${goalElapsed(goal, this.now)}</time>
        ${
          canUpdate && goal.status !== "complete"
            ? html`<button type="button" ?disabled=${!connected} @click=${() => (this.editing = goal.objective)} aria-label="Edit goal">✎</button>`
            : nothing
        }
        ${pausable ? html`<button type="button" ?disabled=${!connected} @click=${() => this.control("sessions.goal.update", { action: "pause" })}>Pause</button>` : nothing}
        ${resumable ? html`<button type="button" ?disabled=${!connected} @click=${() => this.control("sessions.goal.update", { action: "resume" })}>Resume</button>` : nothing}
        ${this.client?.may("sessions.goal.clear") ? html`<button type="button" ?disabled=${!connected} @click=${() => this.control("sessions.goal.clear", {})}>Clear</button>` : nothing}
        <button type="button" class="link" aria-expanded=${this.expanded ? "true" : "false"} @click=${() => (this.expanded = !this.expanded)}>${this.expanded ? "▴" : "▾"}<span class="visually-hidden">details</span></button>
      </div>
      ${
        this.editing !== undefined && canUpdate
          ? html`<form class="goal-edit" @submit=${(e: Event) => (e.preventDefault(), void this.saveEdit())}>
              <label for="goal-edit-objective">Goal objective</label>
              <textarea id="goal-edit-objective" .value=${this.editing} @input=${(e: Event) => (this.editing = (e.target as HTMLTextAreaElement).value)}></textarea>
              <button type="submit" ?disabled=${!connected || !this.editing.trim()}>Save</button>
              <button type="button" @click=${() => (this.editing = undefined)}>Cancel</button>
            </form>`
          : nothing
      }
      ${
        this.expanded
          ? html`<div class="goal-details" data-testid="goal-details">
              <p class="full-objective">${goal.objective}</p>
              ${goal.lastStatusNote ? html`<p class="note">Note: ${goal.lastStatusNote}</p>` : nothing}
              <p class="hint">Since ${new Date(goal.createdAt).toLocaleString()} · tokens ${goalTokens(goal)}</p>
            </div>`
          : nothing
      }
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
    </section>`;
  }
}

customElements.define("oc-goal-pill", GoalPill);
