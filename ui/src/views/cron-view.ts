import { html, nothing } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { ViewElement } from "./view-element.js";
import { call, cellText, errorBox, formatTime, unavailable, readOnlyLine } from "../view-helpers.js";
import { EMPTY_FORM, formValueOf, jobFields, readForm, renderJobForm, type CronJob } from "./cron-job-form.js";

/**
 * Scheduled jobs: when each runs next and how the last run went; add, edit, enable or disable,
 * run now and remove through cron.add / cron.update / cron.run / cron.remove (operator.admin: a
 * connection without it sees the jobs and no form or buttons).
 */
export class CronView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    jobs: { state: true },
    status: { state: true },
    error: { state: true },
    notice: { state: true },
    missing: { state: true },
    editing: { state: true },
  };
  declare jobs: CronJob[];
  declare status: Record<string, unknown> | undefined;
  declare error: string | undefined;
  declare notice: string | undefined;
  declare missing: boolean;
  /** The job whose values fill the form; undefined: the form adds a new job. */
  declare editing: CronJob | undefined;
  private formGeneration = 0;

  constructor() {
    super();
    this.jobs = [];
    this.missing = false;
  }

  protected async load(): Promise<void> {
    const [list, status] = await Promise.all([
      call<{ jobs: CronJob[] }>(this.client, "cron.list", { includeDisabled: true, limit: 200 }),
      call<Record<string, unknown>>(this.client, "cron.status"),
    ]);
    this.missing = !list.ok && list.unavailable;
    if (list.ok) this.jobs = list.value.jobs ?? [];
    else if (!list.unavailable) this.error = list.message;
    if (status.ok) this.status = status.value;
  }

  /** Runs one change; on success says so and reloads, on failure shows the gateway's reason (which names the field). */
  private async act(method: string, params: Record<string, unknown>, done: string): Promise<boolean> {
    const res = await call(this.client, method, params);
    this.error = res.ok ? undefined : res.message;
    this.notice = res.ok ? done : undefined;
    if (res.ok) await this.load();
    return res.ok;
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const value = readForm(event.target as HTMLFormElement);
    const editing = this.editing;
    const ok = editing
      ? await this.act("cron.update", { id: editing.id, patch: jobFields(value, editing) }, `Saved ${value.name.trim()}.`)
      : await this.act("cron.add", jobFields(value), `Added ${value.name.trim()}.`);
    if (ok) this.resetForm();
  }

  private resetForm(): void {
    this.editing = undefined;
    this.formGeneration += 1;
    this.requestUpdate();
  }

  private edit(job: CronJob): void {
    this.editing = job;
    this.formGeneration += 1;
    void this.updateComplete.then(() => (this.querySelector(".cron-form input[name=name]") as HTMLInputElement | null)?.focus());
  }

  protected render() {
    const canChange = this.client.may("cron.add");
    return html`<section aria-label="Cron">
      <h2>Cron</h2>
      ${this.missing ? unavailable("cron.list") : nothing} ${errorBox(this.error)}
      ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${this.status ? html`<dl class="kv">${Object.entries(this.status).map(([k, v]) => html`<dt>${k}</dt><dd>${cellText(v)}</dd>`)}</dl>` : nothing}
      ${
        canChange && !this.missing
          ? keyed(
              this.formGeneration,
              renderJobForm(
                this.editing ? formValueOf(this.editing) : EMPTY_FORM,
                Boolean(this.editing),
                (e) => void this.submit(e),
                () => this.resetForm(),
              ),
            )
          : nothing
      }
      ${!this.missing && !this.client.grantsScopeOf("cron.add") ? readOnlyLine("Read-only: adding, editing, running and removing jobs needs operator.admin.") : nothing}
      ${!this.missing && this.jobs.length === 0 ? html`<p class="hint">No jobs.</p>` : nothing}
      <ul class="cards">${this.jobs.map((job) => this.renderJob(job, canChange))}</ul>
    </section>`;
  }

  /** Run now, Edit (with the form), Enable/Disable and Remove, each only where the connection may call its method. */
  private renderJob(job: CronJob, canChange: boolean) {
    const name = job.name ?? job.id;
    return html`<li class="card cron-job" data-job=${job.id}>
      <strong>${name}</strong> ${job.enabled === false ? html`<span class="badge down">disabled</span>` : nothing}
      <dl>
        <dt>Schedule</dt><dd>${cellText(job.schedule)}</dd>
        <dt>Does</dt><dd>${job.payload?.kind === "systemEvent" ? `event: ${job.payload.text ?? ""}` : `agent turn: ${job.payload?.message ?? ""}`}</dd>
        <dt>Next run</dt><dd>${formatTime(job.state?.nextRunAtMs)}</dd>
        <dt>Last run</dt><dd>${formatTime(job.state?.lastRunAtMs)} ${job.state?.lastStatus ?? job.state?.lastRunStatus ?? ""}</dd>
        ${job.state?.lastError ? html`<dt>Last error</dt><dd>${job.state.lastError}</dd>` : nothing}
      </dl>
      <div class="actions">
        ${this.client.may("cron.run") ? html`<button type="button" @click=${() => this.act("cron.run", { id: job.id, mode: "force" }, `Started ${name}.`)}>Run now</button>` : nothing}
        ${
          canChange && this.client.may("cron.update")
            ? html`<button type="button" @click=${() => this.edit(job)}>Edit</button>
                <button type="button" @click=${() => this.act("cron.update", { id: job.id, patch: { enabled: job.enabled === false } }, `${job.enabled === false ? "Enabled" : "Disabled"} ${name}.`)}>
                  ${job.enabled === false ? "Enable" : "Disable"}
                </button>`
            : nothing
        }
        ${
          this.client.may("cron.remove")
            ? html`<button type="button" class="danger" @click=${() => window.confirm(`Remove ${name}?`) && this.act("cron.remove", { id: job.id }, `Removed ${name}.`)}>Remove</button>`
            : nothing
        }
      </div>
    </li>`;
  }
}

customElements.define("oc-cron-view", CronView);
