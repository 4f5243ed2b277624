import { html, LitElement, nothing } from "lit";
import type { GatewayClient } from "../gateway-client.js";
import { call, errorBox, formatNumber, formatTime } from "../view-helpers.js";
import { itemHash } from "../routes.js";
import type { TraceSummary } from "./trace-record.js";
import { outcomeBadge } from "./trace-tree.js";

const METHOD = "traces.search";
const LIMIT = 50;

/** One hit of traces.search: the run, a passage of its text, and (by meaning) how near it is. */
interface TraceHit extends TraceSummary {
  snippet: string;
  score?: number;
}

interface SearchAnswer {
  results: TraceHit[];
  /** By meaning: how many of the kept traces have a vector yet. */
  coverage?: { embedded: number; traces: number };
}

/**
 * Searching the traces (`traces.search`): by their words, or with "By meaning" by what they are
 * about (the gateway's `diagnostics.traces.search.embeddings`; off, the gateway's refusal says
 * what to set). In the session the Traces view filters by, if any. Each hit opens its run.
 */
export class TraceSearch extends LitElement {
  static properties = {
    client: { attribute: false },
    generation: { attribute: false },
    sessionKey: { attribute: false },
    answer: { state: true },
    asked: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  declare client: GatewayClient | undefined;
  /** The view's connection generation: after each hello-ok the gateway's methods are known again. */
  declare generation: number;
  /** The Traces view's session filter; empty: every session. */
  declare sessionKey: string;
  declare answer: SearchAnswer | undefined;
  /** The query the answer is for, and how it was searched. */
  declare asked: { query: string; meaning: boolean } | undefined;
  declare error: string | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.sessionKey = "";
    this.generation = 0;
    this.busy = false;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  private async search(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const client = this.client;
    const form = event.target as HTMLFormElement;
    const query = (form.elements.namedItem("query") as HTMLInputElement).value.trim();
    const meaning = (form.elements.namedItem("meaning") as HTMLInputElement).checked;
    if (!client || query === "") return;
    const sessionKey = this.sessionKey.trim();
    this.busy = true;
    const res = await call<SearchAnswer>(client, METHOD, { query, limit: LIMIT, ...(meaning ? { mode: "meaning" } : {}), ...(sessionKey ? { sessionKey } : {}) });
    this.busy = false;
    this.asked = { query, meaning };
    this.answer = res.ok ? res.value : undefined;
    this.error = res.ok ? undefined : res.message;
  }

  private clear(): void {
    this.answer = undefined;
    this.asked = undefined;
    this.error = undefined;
    const input = this.querySelector<HTMLInputElement>("input[name=query]");
    if (input) input.value = "";
  }

  protected render() {
    if (!this.client?.has(METHOD)) return nothing;
    return html`<form class="inline trace-search" role="search" aria-label="Search traces" @submit=${this.search}>
        <label>Search <input name="query" placeholder="words, or what a run was about" maxlength="4096" required ?disabled=${this.busy} /></label>
        <label class="check"><input type="checkbox" name="meaning" ?disabled=${this.busy} /> By meaning</label>
        <button type="submit" ?disabled=${this.busy}>Search</button>
        ${this.asked ? html`<button type="button" @click=${this.clear}>Clear</button>` : nothing}
      </form>
      ${errorBox(this.error)} ${this.answer && this.asked ? this.renderAnswer(this.answer, this.asked) : nothing}`;
  }

  private renderAnswer(answer: SearchAnswer, asked: { query: string; meaning: boolean }) {
    const coverage = answer.coverage;
    const where = this.sessionKey.trim() ? " in this session" : "";
    return html`<div class="trace-hits" aria-label="Search results">
      <p class="hint" role="status">
        ${formatNumber(answer.results.length)} run(s) ${asked.meaning ? "about" : "with"} “${asked.query}”${where}${
          coverage ? html` · ${formatNumber(coverage.embedded)} of ${formatNumber(coverage.traces)} traces embedded so far` : nothing
        }
      </p>
      ${
        answer.results.length > 0
          ? html`<ol class="hit-list">
              ${answer.results.map(
                (hit) => html`<li class="card hit" data-run=${hit.runId}>
                  <div class="hit-head">
                    <a class="key" href=${itemHash("traces", hit.runId)}>${hit.runId}</a> ${outcomeBadge(hit.outcome)}
                    <span class="hint">${formatTime(hit.startedAt)} · <span class="key">${hit.sessionKey}</span>${
                      hit.score !== undefined ? html` · <span class="score">similarity ${hit.score.toFixed(2)}</span>` : nothing
                    }</span>
                  </div>
                  <p class="snippet">${hit.snippet}</p>
                </li>`,
              )}
            </ol>`
          : nothing
      }
    </div>`;
  }
}

customElements.define("oc-trace-search", TraceSearch);
