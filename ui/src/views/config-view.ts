import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { GatewayRequestError } from "../gateway-client.js";
import { call, errorBox, unavailable, readOnlyLine } from "../view-helpers.js";

interface ConfigSnapshot {
  path?: string;
  raw?: string;
  format?: string;
  config?: unknown;
  valid?: boolean;
  issues?: { path?: string; message?: string }[];
  hash?: string | null;
}

interface ApplyAnswer {
  changedPaths?: string[];
  restartRequiredPaths?: string[];
  restart?: { scheduled: boolean; delayMs?: number; paths?: string[]; reason?: string };
}

/**
 * The effective config (secrets masked by the gateway), one-key edits through config.patch, and
 * the file's text edited whole through config.set or config.apply. Every edit carries the hash it
 * was read at: a concurrent change is refused, not overwritten, and a value the schema refuses
 * is shown at its key with nothing written.
 */
export class ConfigView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    snapshot: { state: true },
    error: { state: true },
    missing: { state: true },
    issues: { state: true },
    notice: { state: true },
    rawIssues: { state: true },
    rawError: { state: true },
  };
  declare snapshot: ConfigSnapshot | undefined;
  declare error: string | undefined;
  declare missing: boolean;
  declare issues: { path?: string; message?: string }[];
  declare notice: string | undefined;
  /** Problems of the last whole-file save, shown under the text. */
  declare rawIssues: { path?: string; message?: string }[];
  declare rawError: string | undefined;

  constructor() {
    super();
    this.missing = false;
    this.issues = [];
    this.rawIssues = [];
  }

  protected async load(): Promise<void> {
    const res = await call<ConfigSnapshot>(this.client, "config.get");
    this.missing = !res.ok && res.unavailable;
    if (res.ok) this.snapshot = res.value;
    else if (!res.unavailable) this.error = res.message;
  }

  /** The whole file: Save writes it (config.set), Save and apply also restarts the gateway when a changed key needs it. */
  private async saveRaw(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const method = (event.submitter as HTMLButtonElement | null)?.value === "apply" ? "config.apply" : "config.set";
    const raw = (form.elements.namedItem("raw") as HTMLTextAreaElement).value;
    try {
      const res = await this.client.request<ApplyAnswer>(method, { raw, ...(this.snapshot?.hash ? { baseHash: this.snapshot.hash } : {}) });
      this.rawIssues = [];
      this.rawError = undefined;
      this.notice = describeSave(res);
      form.reset();
    } catch (err) {
      this.notice = undefined;
      const details = err instanceof GatewayRequestError ? err.details : {};
      this.rawIssues = Array.isArray(details.issues) ? (details.issues as ConfigView["issues"]) : [];
      this.rawError = (err as Error).message;
      // Keep the text being edited: the fix goes into it.
      return;
    }
    await this.load();
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

  private renderRawEditor(snapshot: ConfigSnapshot) {
    return html`<form class="raw-config" @submit=${this.saveRaw} aria-label="Edit the config file">
      <h3>Edit the file${snapshot.format ? ` (${snapshot.format})` : ""}</h3>
      <p class="hint">Secrets show as <code>__OPENCLAW_REDACTED__</code>; leave them so and the stored value is kept.</p>
      <label class="visually-hidden" for="raw-config">Config file text</label>
      <textarea id="raw-config" name="raw" rows="16" spellcheck="false" .defaultValue=${snapshot.raw ?? ""}></textarea>
      ${errorBox(this.rawError)}
      ${this.rawIssues.length > 0 ? html`<ul class="issues raw-issues" role="alert">${this.rawIssues.map((i) => html`<li><code>${i.path ?? ""}</code>: ${i.message ?? ""}</li>`)}</ul>` : nothing}
      <div class="actions">
        <button type="submit" value="set">Save</button>
        ${this.client.may("config.apply") ? html`<button type="submit" value="apply">Save and apply</button>` : nothing}
      </div>
    </form>`;
  }

  /** The one-key form; a connection without operator.admin (every edit method needs it) is told so instead of offered the editors. */
  private renderKeyEditor() {
    if (!this.client.has("config.patch")) return unavailable("config.patch");
    if (!this.client.grantsScopeOf("config.patch")) return readOnlyLine("Read-only: editing the config needs operator.admin.");
    return html`<form class="inline" @submit=${this.edit} aria-label="Edit one key">
      <input name="key" placeholder="key path, e.g. gateway.reload.mode" aria-label="Key path" />
      <input name="value" placeholder="value (JSON, or plain text)" aria-label="Value" />
      <button type="submit">Save</button>
    </form>`;
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
            ${this.renderKeyEditor()}
            <pre class="config">${JSON.stringify(this.snapshot.config ?? null, null, 2)}</pre>
            ${this.client.may("config.set") ? this.renderRawEditor(this.snapshot) : nothing}`
          : nothing
      }
    </section>`;
  }
}

/** What a save did, in words: applied live, waiting for a restart, or restarting now. */
function describeSave(res: ApplyAnswer): string {
  const changed = res.changedPaths?.length ? `Saved (${res.changedPaths.join(", ")}).` : "Saved (no key changed).";
  if (res.restart?.scheduled)
    return `${changed} The gateway restarts in ${Math.round((res.restart.delayMs ?? 0) / 100) / 10} s to apply ${(res.restart.paths ?? []).join(", ")}; this page reconnects.`;
  if (res.restart) return `${changed} Applied; ${res.restart.reason ?? "no restart"}.`;
  if (res.restartRequiredPaths?.length) return `${changed} Waiting for a restart: ${res.restartRequiredPaths.join(", ")} (Save and apply restarts).`;
  return changed;
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
