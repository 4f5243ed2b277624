import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { GatewayRequestError } from "../gateway-client.js";
import { call, errorBox, unavailable } from "../view-helpers.js";

interface ConfigSnapshot {
  path?: string;
  config?: unknown;
  valid?: boolean;
  issues?: { path?: string; message?: string }[];
  hash?: string | null;
}

/**
 * The effective config (secrets masked by the gateway) and one-key edits through config.patch.
 * The edit carries the hash it was read at: a concurrent change is refused, not overwritten, and
 * a value the schema refuses is shown at its key with nothing written.
 */
export class ConfigView extends ViewElement {
  static properties = { ...ViewElement.properties, snapshot: { state: true }, error: { state: true }, missing: { state: true }, issues: { state: true }, notice: { state: true } };
  declare snapshot: ConfigSnapshot | undefined;
  declare error: string | undefined;
  declare missing: boolean;
  declare issues: { path?: string; message?: string }[];
  declare notice: string | undefined;

  constructor() {
    super();
    this.missing = false;
    this.issues = [];
  }

  protected async load(): Promise<void> {
    const res = await call<ConfigSnapshot>(this.client, "config.get");
    this.missing = !res.ok && res.unavailable;
    if (res.ok) this.snapshot = res.value;
    else if (!res.unavailable) this.error = res.message;
  }

  private async edit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const keyPath = (form.elements.namedItem("key") as HTMLInputElement).value.trim();
    const rawValue = (form.elements.namedItem("value") as HTMLInputElement).value;
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(keyPath)) {
      this.issues = [{ path: keyPath, message: "a key path looks like gateway.port or agents.defaults.model.primary" }];
      return;
    }
    const patch = keyPath.split(".").reduceRight<unknown>((value, key) => ({ [key]: value }), parseValue(rawValue));
    try {
      await this.client.request("config.patch", { raw: JSON.stringify(patch), ...(this.snapshot?.hash ? { baseHash: this.snapshot.hash } : {}) });
      this.issues = [];
      this.error = undefined;
      this.notice = `Saved ${keyPath}.`;
    } catch (err) {
      this.notice = undefined;
      const details = err instanceof GatewayRequestError ? err.details : {};
      this.issues = Array.isArray(details.issues) ? (details.issues as ConfigView["issues"]) : [];
      this.error = (err as Error).message;
    }
    await this.load();
  }

  protected render() {
    return html`<section aria-label="Config">
      <h2>Config</h2>
      ${this.missing ? unavailable("config.get") : nothing} ${errorBox(this.error)}
      ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${this.issues.length > 0 ? html`<ul class="issues" role="alert">${this.issues.map((i) => html`<li><code>${i.path ?? ""}</code>: ${i.message ?? ""}</li>`)}</ul>` : nothing}
      ${
        this.snapshot
          ? html`<p class="hint">${this.snapshot.path ?? "no config file yet"}${this.snapshot.valid === false ? " (invalid)" : ""}</p>
            ${
              this.client.has("config.patch")
                ? html`<form class="inline" @submit=${this.edit} aria-label="Edit one key">
                  <input name="key" placeholder="key path, e.g. gateway.reload.mode" aria-label="Key path" />
                  <input name="value" placeholder="value (JSON, or plain text)" aria-label="Value" />
                  <button type="submit">Save</button>
                </form>`
                : unavailable("config.patch")
            }
            <pre class="config">${JSON.stringify(this.snapshot.config ?? null, null, 2)}</pre>`
          : nothing
      }
    </section>`;
  }
}

/** `8080` → 8080, `true` → true, `["a"]` → ["a"], anything else stays text. */
function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

customElements.define("oc-config-view", ConfigView);
