import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { barChart } from "./usage-chart.js";
import { call, errorBox, recordTable, unavailable } from "../view-helpers.js";

interface DailyUsage {
  date: string;
  totalTokens?: number;
  totalCost?: number;
  input?: number;
  output?: number;
}

/** Tokens and cost per day (a chart) and per model (a table), from usage.cost. */
export class UsageView extends ViewElement {
  static properties = { ...ViewElement.properties, usage: { state: true }, error: { state: true }, missing: { state: true }, days: { state: true } };
  declare usage: { daily?: DailyUsage[]; totals?: Record<string, unknown>; byModel?: Record<string, unknown>[]; models?: Record<string, unknown>[] } | undefined;
  declare error: string | undefined;
  declare missing: boolean;
  declare days: number;

  constructor() {
    super();
    this.days = 30;
    this.missing = false;
  }

  protected async load(): Promise<void> {
    const res = await call<NonNullable<UsageView["usage"]>>(this.client, "usage.cost", { days: this.days });
    this.missing = !res.ok && res.unavailable;
    if (res.ok) {
      this.usage = res.value;
      this.error = undefined;
    } else if (!res.unavailable) this.error = res.message;
  }

  protected render() {
    const daily = this.usage?.daily ?? [];
    const perModel = this.usage?.byModel ?? this.usage?.models ?? [];
    return html`<section aria-label="Usage">
      <h2>Usage</h2>
      ${this.missing ? unavailable("usage.cost") : nothing} ${errorBox(this.error)}
      ${this.usage
        ? html`<label>Days <select @change=${(e: Event) => { this.days = Number((e.target as HTMLSelectElement).value); void this.load(); }}>
              ${[7, 30, 90].map((d) => html`<option value=${d} ?selected=${d === this.days}>${d}</option>`)}
            </select></label>
            ${barChart(daily.map((d) => ({ label: d.date, value: d.totalTokens ?? 0, note: d.totalCost !== undefined ? `$${d.totalCost.toFixed(4)}` : undefined })), `Tokens per day, last ${this.days} days`)}
            ${this.usage.totals ? html`<h3>Totals</h3>${recordTable([this.usage.totals])}` : nothing}
            ${perModel.length > 0 ? html`<h3>Per model</h3>${recordTable(perModel)}` : nothing}`
        : nothing}
    </section>`;
  }
}

customElements.define("oc-usage-view", UsageView);
