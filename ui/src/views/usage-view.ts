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
      ${
        this.usage
          ? html`<label>Days <select @change=${(e: Event) => {
              this.days = Number((e.target as HTMLSelectElement).value);
              void this.load();
            }}>
              ${[7, 30, 90].map((d) => html`<option value=${d} ?selected=${d === this.days}>${d}</option>`)}
            </select></label>
            ${barChart(
              daily.map((d) => ({ label: d.date, axis: d.date.slice(5), value: d.totalTokens ?? 0, note: costNote(d.totalCost) })),
              `Tokens per day (UTC), last ${this.days} days`,
            )}
            ${
              perModel.length > 0
                ? barChart(
                    perModel.map((m) => ({ label: String(m.model ?? "unknown"), value: Number(m.totalTokens ?? 0), note: costNote(m.totalCost as number | undefined) })),
                    "Tokens per model",
                  )
                : nothing
            }
            ${this.usage.totals ? html`<h3>Totals</h3>${recordTable([this.usage.totals], ["calls", "input", "output", "cacheRead", "cacheWrite", "totalTokens", "totalCost"])}` : nothing}
            ${perModel.length > 0 ? html`<h3>Per model</h3>${recordTable(perModel, ["provider", "model", "calls", "input", "output", "totalTokens", "totalCost"])}` : nothing}`
          : nothing
      }
    </section>`;
  }
}

function costNote(cost: number | undefined): string | undefined {
  return typeof cost === "number" ? `$${cost.toFixed(4)}` : undefined;
}

customElements.define("oc-usage-view", UsageView);
