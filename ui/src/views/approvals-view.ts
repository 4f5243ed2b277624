import { html, nothing } from "lit";
import { ViewElement } from "./view-element.js";
import { errorBox, formatTime, readOnlyLine } from "../view-helpers.js";
import type { ApprovalsStore } from "../approvals-store.js";

/** Exec approvals as they arrive: the command, where and for whom, and the three answers (all need operator.approvals). */
export class ApprovalsView extends ViewElement {
  static properties = { ...ViewElement.properties, store: { attribute: false }, pendingCount: { type: Number }, error: { state: true } };
  declare store: ApprovalsStore;
  declare pendingCount: number;
  declare error: string | undefined;

  protected async load(): Promise<void> {}

  private async decide(id: string, decision: "allow-once" | "allow-always" | "deny"): Promise<void> {
    try {
      await this.store.resolve(id, decision);
      this.error = undefined;
    } catch (err) {
      this.error = `exec.approval.resolve failed: ${(err as Error).message}`;
    }
    this.requestUpdate();
  }

  protected render() {
    const pending = this.store?.pending ?? [];
    return html`<section aria-label="Approvals">
      <h2>Exec approvals</h2>
      ${errorBox(this.error)}
      ${
        !this.client.grantsScopeOf("exec.approval.list")
          ? readOnlyLine("Read-only: seeing and answering exec approvals needs operator.approvals.")
          : pending.length === 0
            ? html`<p class="hint">Nothing is waiting for approval.</p>`
            : nothing
      }
      <ul class="cards">
        ${pending.map(
          (r) => html`<li class="card approval" data-approval-id=${r.id}>
            <pre class="command">${r.command}</pre>
            <dl>
              ${r.cwd ? html`<dt>Directory</dt><dd>${r.cwd}</dd>` : nothing}
              ${r.sessionKey ? html`<dt>Session</dt><dd>${r.sessionKey}</dd>` : nothing}
              ${r.agentId ? html`<dt>Agent</dt><dd>${r.agentId}</dd>` : nothing}
              ${r.reason ? html`<dt>Reason</dt><dd>${r.reason}</dd>` : nothing}
              <dt>Expires</dt><dd>${formatTime(r.expiresAtMs)}</dd>
            </dl>
            ${
              this.client.may("exec.approval.resolve")
                ? html`<div class="actions">
                  <button type="button" @click=${() => this.decide(r.id, "allow-once")}>Allow once</button>
                  <button type="button" @click=${() => this.decide(r.id, "allow-always")}>Allow always</button>
                  <button type="button" class="danger" @click=${() => this.decide(r.id, "deny")}>Deny</button>
                </div>`
                : nothing
            }
          </li>`,
        )}
      </ul>
    </section>`;
  }
}

customElements.define("oc-approvals-view", ApprovalsView);
