import { html, LitElement, nothing, type PropertyValues } from "lit";
import { formatNumber } from "../view-helpers.js";

/** Characters shown of a long text until the reader asks for all of it. */
export const TEXT_CAP = 1_500;

/**
 * A text shown as text (never markup): past `limit` characters only its head shows, with a button
 * that shows the whole text (and one that folds it again). A new text starts folded.
 */
export class CappedText extends LitElement {
  static properties = { text: { attribute: false }, limit: { type: Number }, expanded: { state: true } };
  declare text: string;
  declare limit: number;
  declare expanded: boolean;

  constructor() {
    super();
    this.text = "";
    this.limit = TEXT_CAP;
    this.expanded = false;
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  protected willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("text")) this.expanded = false;
  }

  protected render() {
    const long = this.text.length > this.limit;
    const shown = long && !this.expanded ? `${this.text.slice(0, this.limit)}…` : this.text;
    return html`<pre>${shown}</pre>${
      long
        ? html`<button type="button" class="link expand" aria-expanded=${this.expanded ? "true" : "false"} @click=${() => (this.expanded = !this.expanded)}>
            ${this.expanded ? "Show less" : `Show all ${formatNumber(this.text.length)} characters`}
          </button>`
        : nothing
    }`;
  }
}

customElements.define("oc-capped-text", CappedText);
