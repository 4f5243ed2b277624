import { html, type TemplateResult } from "lit";

export interface CronJob {
  id: string;
  name?: string;
  enabled?: boolean;
  sessionTarget?: string;
  schedule?: { kind?: string; at?: string; everyMs?: number; expr?: string; tz?: string };
  payload?: { kind?: string; text?: string; message?: string };
  state?: { nextRunAtMs?: number; lastRunAtMs?: number; lastStatus?: string; lastRunStatus?: string; lastError?: string };
}

/** What the form edits; the gateway validates the rest and answers with the field at fault. */
export interface CronFormValue {
  name: string;
  what: "agentTurn" | "systemEvent";
  text: string;
  scheduleKind: "every" | "cron" | "at";
  scheduleValue: string;
  enabled: boolean;
}

const UNITS: [string, number][] = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1_000],
];

/** A job as the form shows it: an interval in its largest whole unit (90m stays 90m). */
export function formValueOf(job: CronJob): CronFormValue {
  const s = job.schedule ?? {};
  const kind = s.kind === "cron" || s.kind === "at" ? s.kind : "every";
  const every = s.everyMs ?? 0;
  const unit = UNITS.find(([, ms]) => every > 0 && every % ms === 0);
  const scheduleValue = kind === "cron" ? (s.expr ?? "") : kind === "at" ? (s.at ?? "") : unit ? `${every / unit[1]}${unit[0]}` : `${every}ms`;
  const what = job.payload?.kind === "systemEvent" ? "systemEvent" : "agentTurn";
  return {
    name: job.name ?? "",
    what,
    text: (what === "systemEvent" ? job.payload?.text : job.payload?.message) ?? "",
    scheduleKind: kind,
    scheduleValue,
    enabled: job.enabled !== false,
  };
}

/**
 * The `cron.add` fields (or the `cron.update` patch) for a form value. An agent turn runs in its
 * own isolated session; a system event is text for the main session, as the gateway requires.
 */
export function jobFields(value: CronFormValue, previous?: CronJob): Record<string, unknown> {
  const schedule =
    value.scheduleKind === "cron"
      ? { kind: "cron", expr: value.scheduleValue.trim(), ...(previous?.schedule?.kind === "cron" && previous.schedule.tz ? { tz: previous.schedule.tz } : {}) }
      : value.scheduleKind === "at"
        ? { kind: "at", at: value.scheduleValue.trim() }
        : { kind: "every", every: value.scheduleValue.trim() };
  return {
    name: value.name.trim(),
    enabled: value.enabled,
    schedule,
    sessionTarget: value.what === "systemEvent" ? "main" : "isolated",
    payload: value.what === "systemEvent" ? { kind: "systemEvent", text: value.text } : { kind: "agentTurn", message: value.text },
  };
}

export function readForm(form: HTMLFormElement): CronFormValue {
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  return {
    name: field("name").value,
    what: field("what").value === "systemEvent" ? "systemEvent" : "agentTurn",
    text: field("text").value,
    scheduleKind: (["every", "cron", "at"].includes(field("scheduleKind").value) ? field("scheduleKind").value : "every") as CronFormValue["scheduleKind"],
    scheduleValue: field("scheduleValue").value,
    enabled: field("enabled").checked,
  };
}

export const EMPTY_FORM: CronFormValue = { name: "", what: "agentTurn", text: "", scheduleKind: "every", scheduleValue: "1h", enabled: true };

/** The add/edit form; `key` re-creates it so a different job's values are filled in. */
export function renderJobForm(value: CronFormValue, editing: boolean, onSubmit: (e: SubmitEvent) => void, onCancel: () => void): TemplateResult {
  return html`<form class="cron-form card" aria-label=${editing ? "Edit job" : "New job"} @submit=${onSubmit}>
    <h3>${editing ? "Edit job" : "New job"}</h3>
    <label>Name <input name="name" required .value=${value.name} /></label>
    <label>What
      <select name="what" .value=${value.what}>
        <option value="agentTurn" ?selected=${value.what === "agentTurn"}>Agent turn (own session)</option>
        <option value="systemEvent" ?selected=${value.what === "systemEvent"}>System event (main session)</option>
      </select>
    </label>
    <label>Message <textarea name="text" rows="2" required .value=${value.text}></textarea></label>
    <label>Schedule
      <select name="scheduleKind" .value=${value.scheduleKind}>
        <option value="every" ?selected=${value.scheduleKind === "every"}>every (30m, 2h, 1d)</option>
        <option value="cron" ?selected=${value.scheduleKind === "cron"}>cron expression</option>
        <option value="at" ?selected=${value.scheduleKind === "at"}>once at (ISO time or delay)</option>
      </select>
    </label>
    <label>When <input name="scheduleValue" required .value=${value.scheduleValue} /></label>
    <label class="check"><input type="checkbox" name="enabled" .checked=${value.enabled} /> Enabled</label>
    <div class="actions">
      <button type="submit">${editing ? "Save job" : "Add job"}</button>
      ${editing ? html`<button type="button" @click=${onCancel}>Cancel</button>` : ""}
    </div>
  </form>`;
}
