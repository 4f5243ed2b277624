import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { GatewayClient } from "../gateway-client.js";
import { call, errorBox } from "../view-helpers.js";
import type { ReviewLabel } from "./review-record.js";

const METHOD = "traces.review.label";

/** What `review-labelled` carries: the run's new label as the gateway stored it. */
export interface ReviewLabelledDetail {
  runId: string;
  label: ReviewLabel;
  note?: string;
  at: number;
}

/**
 * Pass / Fail with an optional note for one run (`traces.review.label`). Shown only to a
 * connection granted operator.write on a gateway that has the method; others see nothing here.
 * A stored label fires `review-labelled` (bubbling); a refusal is shown beside the buttons.
 */
export class ReviewLabelForm extends LitElement {
  static properties = {
    client: { attribute: false },
    runId: { attribute: false },
    busy: { state: true },
    error: { state: true },
  };
  declare client: GatewayClient | undefined;
  declare runId: string;
  declare busy: boolean;
  declare error: string | undefined;

  constructor() {
    super();
    this.runId = "";
    this.busy = false;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  /** Another run here (the element is reused): the last run's refusal goes. */
  protected willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("runId")) this.error = undefined;
  }

  private async give(label: ReviewLabel): Promise<void> {
    const client = this.client;
    if (!client) return;
    const input = this.querySelector<HTMLInputElement>("input[name=note]");
    const note = input?.value.trim() || undefined;
    this.busy = true;
    const res = await call<{ ok: boolean }>(client, METHOD, { runId: this.runId, label, ...(note ? { note } : {}) });
    this.busy = false;
    if (!res.ok) {
      this.error = res.message;
      return;
    }
    this.error = undefined;
    if (input) input.value = "";
    const detail: ReviewLabelledDetail = { runId: this.runId, label, ...(note ? { note } : {}), at: Date.now() };
    this.dispatchEvent(new CustomEvent<ReviewLabelledDetail>("review-labelled", { detail, bubbles: true }));
  }

  protected render() {
    const client = this.client;
    if (!client?.may(METHOD)) return nothing;
    return html`<div class="review-label-form" role="group" aria-label="Label run ${this.runId}">
      <input name="note" placeholder="note (optional)" aria-label="Label note" maxlength="2000" ?disabled=${this.busy} />
      <button type="button" class="pass" ?disabled=${this.busy} @click=${() => this.give("pass")}>Pass</button>
      <button type="button" class="danger fail" ?disabled=${this.busy} @click=${() => this.give("fail")}>Fail</button>
      ${errorBox(this.error)}
    </div>`;
  }
}

customElements.define("oc-review-label-form", ReviewLabelForm);
