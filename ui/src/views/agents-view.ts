import { html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { ViewElement } from "./view-element.js";
import { call, errorBox, recordTable, unavailable } from "../view-helpers.js";
import { agentFormValueOf, createParams, EMPTY_AGENT_FORM, ownModel, readAgentForm, renderAgentForm, updateParams, type AgentRow } from "./agent-form.js";

type Section = { title: string; method: string; body?: TemplateResult; error?: string; missing?: boolean };
type CallResult<T> = Awaited<ReturnType<typeof call<T>>>;

/**
 * Agents, the models they may use, and the tools each one has (what `tools explain` prints).
 * Where the gateway has agents.create / agents.update / agents.delete, agents are created,
 * edited and deleted here too.
 */
export class AgentsView extends ViewElement {
  static properties = {
    ...ViewElement.properties,
    agents: { state: true },
    defaultId: { state: true },
    agentsError: { state: true },
    agentsMissing: { state: true },
    modelRefs: { state: true },
    sections: { state: true },
    createError: { state: true },
    notice: { state: true },
    editingId: { state: true },
    rowErrors: { state: true },
  };
  declare agents: AgentRow[];
  declare defaultId: string | undefined;
  declare agentsError: string | undefined;
  declare agentsMissing: boolean;
  declare modelRefs: string[];
  declare sections: Section[];
  declare createError: string | undefined;
  declare notice: string | undefined;
  /** The agent whose row shows the edit form. */
  declare editingId: string | undefined;
  /** A failed update or delete, shown in the agent's row. */
  declare rowErrors: Record<string, string>;
  private createGeneration = 0;

  constructor() {
    super();
    this.agents = [];
    this.agentsMissing = false;
    this.modelRefs = [];
    this.sections = [];
    this.rowErrors = {};
  }

  protected async load(): Promise<void> {
    const [agents, models, tools] = await Promise.all([
      call<{ defaultId?: string; agents: AgentRow[] }>(this.client, "agents.list"),
      call<{ models: Record<string, unknown>[] }>(this.client, "models.list"),
      call<Record<string, unknown>>(this.client, "tools.effective"),
    ]);
    this.showAgents(agents);
    this.modelRefs = models.ok ? models.value.models.map((m) => String(m.ref ?? `${m.provider}/${m.id}`)) : [];
    this.sections = [
      section("Models", "models.list", models, (v) => recordTable(v.models, ["id", "name", "provider", "contextWindow", "reasoning"])),
      section("Tools", "tools.effective", tools, (v) => recordTable(toolRows(v))),
    ];
  }

  private showAgents(res: CallResult<{ defaultId?: string; agents: AgentRow[] }>): void {
    this.agentsMissing = !res.ok && res.unavailable;
    this.agentsError = res.ok || res.unavailable ? undefined : res.message;
    if (!res.ok) return;
    this.agents = res.value.agents ?? [];
    this.defaultId = res.value.defaultId;
  }

  private async reloadAgents(): Promise<void> {
    this.showAgents(await call<{ defaultId?: string; agents: AgentRow[] }>(this.client, "agents.list"));
  }

  private async createAgent(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const params = createParams(readAgentForm(event.target as HTMLFormElement));
    const res = await call<{ agentId: string }>(this.client, "agents.create", params);
    // On failure the form keeps what was typed; the gateway's reason names the field.
    this.createError = res.ok ? undefined : res.message;
    if (!res.ok) return;
    this.notice = `Created agent ${res.value.agentId}.`;
    this.createGeneration += 1;
    await this.reloadAgents();
  }

  private async updateAgent(event: SubmitEvent, agent: AgentRow): Promise<void> {
    event.preventDefault();
    const params = updateParams(agent, readAgentForm(event.target as HTMLFormElement));
    const res = await call(this.client, "agents.update", params);
    this.setRowError(agent.id, res.ok ? undefined : res.message);
    if (!res.ok) return;
    this.notice = `Saved agent ${agent.id}.`;
    this.editingId = undefined;
    await this.reloadAgents();
  }

  private async deleteAgent(agent: AgentRow): Promise<void> {
    const label = agent.name ? `${agent.name} (${agent.id})` : agent.id;
    if (!window.confirm(`Delete agent ${label}? Its workspace and session files are kept on disk.`)) return;
    const res = await call<{ removedBindings?: number }>(this.client, "agents.delete", { agentId: agent.id });
    this.setRowError(agent.id, res.ok ? undefined : res.message);
    if (!res.ok) return;
    this.notice = `Deleted agent ${agent.id}; its files are kept.`;
    if (this.editingId === agent.id) this.editingId = undefined;
    await this.reloadAgents();
  }

  private setRowError(agentId: string, message: string | undefined): void {
    const next = { ...this.rowErrors };
    if (message) next[agentId] = message;
    else delete next[agentId];
    this.rowErrors = next;
  }

  private edit(agentId: string | undefined): void {
    if (this.editingId) this.setRowError(this.editingId, undefined);
    this.editingId = agentId;
  }

  /** The roster methods need operator.admin: a connection without it sees the agents but no form or buttons. */
  private canEditRoster(method: "agents.create" | "agents.update" | "agents.delete"): boolean {
    return this.client.may(method);
  }

  protected render() {
    const canCreate = this.canEditRoster("agents.create");
    return html`<section aria-label="Agents and tools">
      <h2>Agents & tools</h2>
      <h3>Agents</h3>
      ${this.agentsMissing ? unavailable("agents.list") : nothing}${errorBox(this.agentsError)}
      ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${
        canCreate && !this.agentsMissing
          ? keyed(
              this.createGeneration,
              renderAgentForm(EMPTY_AGENT_FORM, {
                modelRefs: this.modelRefs,
                error: this.createError,
                onSubmit: (e) => void this.createAgent(e),
              }),
            )
          : nothing
      }
      <ul class="cards agent-list">${this.agents.map((agent) => this.renderAgent(agent))}</ul>
      ${this.sections.map((s) => html`<h3>${s.title}</h3>${s.missing ? unavailable(s.method) : nothing}${errorBox(s.error)}${s.body ?? nothing}`)}
    </section>`;
  }

  private renderAgent(agent: AgentRow): TemplateResult {
    const error = this.rowErrors[agent.id];
    const canEdit = this.canEditRoster("agents.update");
    const canDelete = this.canEditRoster("agents.delete");
    return html`<li class="card agent" data-agent=${agent.id}>
      <strong>${agent.identity?.emoji ? `${agent.identity.emoji} ` : ""}${agent.name ?? agent.id}</strong>
      ${agent.id === this.defaultId ? html`<span class="badge ok">default</span>` : nothing}
      <dl>
        <dt>Id</dt><dd>${agent.id}</dd>
        <dt>Model</dt><dd>${ownModel(agent) || "default"}</dd>
        <dt>Workspace</dt><dd>${agent.workspace ?? "—"}</dd>
      </dl>
      ${
        canEdit && this.editingId === agent.id
          ? renderAgentForm(agentFormValueOf(agent), {
              editing: agent,
              modelRefs: this.modelRefs,
              error,
              onSubmit: (e) => void this.updateAgent(e, agent),
              onCancel: () => this.edit(undefined),
            })
          : errorBox(error)
      }
      <div class="actions">
        ${canEdit && this.editingId !== agent.id ? html`<button type="button" @click=${() => this.edit(agent.id)}>Edit</button>` : nothing}
        ${canDelete ? html`<button type="button" class="danger" @click=${() => void this.deleteAgent(agent)}>Delete</button>` : nothing}
      </div>
    </li>`;
  }
}

function section<T>(title: string, method: string, res: CallResult<T>, body: (value: T) => TemplateResult): Section {
  if (res.ok) return { title, method, body: body(res.value) };
  return res.unavailable ? { title, method, missing: true } : { title, method, error: res.message };
}

/** tools.effective lists tools flat or in groups; either way one row per tool. */
function toolRows(value: Record<string, unknown>): Record<string, unknown>[] {
  const groups = Array.isArray(value.groups) ? (value.groups as Record<string, unknown>[]) : [];
  if (groups.length > 0) return groups.flatMap((g) => ((g.tools as Record<string, unknown>[]) ?? []).map((t) => ({ group: g.label ?? g.id, ...t })));
  return Array.isArray(value.tools) ? (value.tools as Record<string, unknown>[]) : [];
}

customElements.define("oc-agents-view", AgentsView);
