import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { call, cellText, errorBox, unavailable } from "../view-helpers.js";

/** The default agent's memory index: what is indexed and whether search works. */
export class MemoryView extends ViewElement {
  static properties = { ...ViewElement.properties, status: { state: true }, error: { state: true }, missing: { state: true } };
  declare status: Record<string, unknown> | undefined;
  declare error: string | undefined;
  declare missing: boolean;

  protected async load(): Promise<void> {
    const res = await call<Record<string, unknown>>(this.client, "memory.status");
    this.missing = !res.ok && res.unavailable;
    if (res.ok) this.status = res.value;
    else this.error = res.message;
  }

  protected render() {
    return html`<section aria-label="Memory">
      <h2>Memory</h2>
      ${this.missing ? unavailable("memory.status") : errorBox(this.error)}
      ${this.status ? html`<dl class="kv">${Object.entries(this.status).map(([k, v]) => html`<dt>${k}</dt><dd>${cellText(v)}</dd>`)}</dl>` : nothing}
    </section>`;
  }
}

customElements.define("oc-memory-view", MemoryView);
