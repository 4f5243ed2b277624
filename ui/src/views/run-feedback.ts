import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { GatewayClient } from "../gateway-client.js";
import { call, errorBox } from "../view-helpers.js";
import type { FeedbackRating } from "./review-record.js";

const METHOD = "traces.feedback";

/** What `run-feedback` carries: the rating the gateway stored, and whether the run now waits in the review queue. */
export interface RunFeedbackDetail {
  runId: string;
  rating: FeedbackRating;
  note?: string;
  queued: boolean;
  at: number;
}

/**
 * 👍 / 👎 for one run (`traces.feedback`), with an optional note when `withNote` is set. Shown
 * only to a connection granted operator.write on a gateway that has the method. The rating in
 * force is pressed; a stored one fires `run-feedback` (bubbling); a refusal is shown in place.
 */
export class RunFeedback extends LitElement {
  static properties = {
    client: { attribute: false },
    runId: { attribute: false },
    rating: { attribute: false },
    withNote: { type: Boolean },
    busy: { state: true },
    error: { state: true },
  };
  declare client: GatewayClient | undefined;
  declare runId: string;
  /** The run's rating in force, if any. */
  declare rating: FeedbackRating | undefined;
  declare withNote: boolean;
  declare busy: boolean;
  declare error: string | undefined;

  constructor() {
    super();
    this.runId = "";
    this.withNote = false;
    this.busy = false;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  /** Another run here (the element is reused): the last run's refusal goes. */
  protected willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("runId")) this.error = undefined;
  }

  private async rate(rating: FeedbackRating): Promise<void> {
    const client = this.client;
    if (!client) return;
    const input = this.querySelector<HTMLInputElement>("input[name=feedback-note]");
    const note = input?.value.trim() || undefined;
    this.busy = true;
    const res = await call<{ queued: boolean }>(client, METHOD, { runId: this.runId, rating, ...(note ? { note } : {}) });
    this.busy = false;
    if (!res.ok) {
      this.error = res.message;
      return;
    }
    this.error = undefined;
    this.rating = rating;
    if (input) input.value = "";
    const detail: RunFeedbackDetail = { runId: this.runId, rating, ...(note ? { note } : {}), queued: res.value.queued, at: Date.now() };
    this.dispatchEvent(new CustomEvent<RunFeedbackDetail>("run-feedback", { detail, bubbles: true }));
  }

  protected render() {
    const client = this.client;
    if (!client?.may(METHOD)) return nothing;
    return html`<div class="run-feedback" role="group" aria-label="Rate run ${this.runId}">
      ${this.withNote ? html`<input name="feedback-note" placeholder="feedback note (optional)" aria-label="Feedback note" maxlength="2000" ?disabled=${this.busy} />` : nothing}
      <button type="button" class="rate up" title="Good reply" aria-label="Good reply" aria-pressed=${this.rating === "up" ? "true" : "false"} ?disabled=${this.busy} @click=${() => this.rate("up")}>👍</button>
      <button type="button" class="rate down" title="Bad reply" aria-label="Bad reply" aria-pressed=${this.rating === "down" ? "true" : "false"} ?disabled=${this.busy} @click=${() => this.rate("down")}>👎</button>
      ${errorBox(this.error)}
    </div>`;
  }
}

customElements.define("oc-run-feedback", RunFeedback);
