import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, cellText, errorBox, formatTime, unavailable } from "../view-helpers.js";

interface CronJob {
  id: string;
  name?: string;
  enabled?: boolean;
  schedule?: Record<string, unknown>;
  state?: { nextRunAtMs?: number; lastRunAtMs?: number; lastStatus?: string; lastRunStatus?: string; lastError?: string };
}

/** Scheduled jobs: when each runs next, how the last run went, and Run now. */
export class CronView extends ViewElement {
  static properties = { ...ViewElement.properties, jobs: { state: true }, status: { state: true }, error: { state: true }, missing: { state: true } };
  declare jobs: CronJob[];
  declare status: Record<string, unknown> | undefined;
  declare error: string | undefined;
  declare missing: boolean;

  constructor() {
    super();
    this.jobs = [];
    this.missing = false;
  }

  protected async load(): Promise<void> {
    const [list, status] = await Promise.all([
      call<{ jobs: CronJob[] }>(this.client, "cron.list", { includeDisabled: true }),
      call<Record<string, unknown>>(this.client, "cron.status"),
    ]);
    this.missing = !list.ok && list.unavailable;
    if (list.ok) this.jobs = list.value.jobs ?? [];
    else if (!list.unavailable) this.error = list.message;
    if (status.ok) this.status = status.value;
  }

  private async run(job: CronJob): Promise<void> {
    const res = await call(this.client, "cron.run", { id: job.id, mode: "force" });
    this.error = res.ok ? undefined : res.message;
    await this.load();
  }

  protected render() {
    return html`<section aria-label="Cron">
      <h2>Cron</h2>
      ${this.missing ? unavailable("cron.list") : nothing} ${errorBox(this.error)}
      ${this.status ? html`<dl class="kv">${Object.entries(this.status).map(([k, v]) => html`<dt>${k}</dt><dd>${cellText(v)}</dd>`)}</dl>` : nothing}
      ${!this.missing && this.jobs.length === 0 ? html`<p class="hint">No jobs.</p>` : nothing}
      <ul class="cards">
        ${this.jobs.map(
          (job) => html`<li class="card">
            <strong>${job.name ?? job.id}</strong> ${job.enabled === false ? html`<span class="badge down">disabled</span>` : nothing}
            <dl>
              <dt>Schedule</dt><dd>${cellText(job.schedule)}</dd>
              <dt>Next run</dt><dd>${formatTime(job.state?.nextRunAtMs)}</dd>
              <dt>Last run</dt><dd>${formatTime(job.state?.lastRunAtMs)} ${job.state?.lastStatus ?? job.state?.lastRunStatus ?? ""}</dd>
              ${job.state?.lastError ? html`<dt>Last error</dt><dd>${job.state.lastError}</dd>` : nothing}
            </dl>
            ${this.client.has("cron.run") ? html`<div class="actions"><button type="button" @click=${() => this.run(job)}>Run now</button></div>` : nothing}
          </li>`,
        )}
      </ul>
    </section>`;
  }
}

customElements.define("oc-cron-view", CronView);
