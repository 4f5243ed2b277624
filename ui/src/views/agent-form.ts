import { html, nothing, type TemplateResult } from "lit";

/** One agent as `agents.list` answers it; `model` is the agent's own model only (absent: the default). */
export interface AgentRow {
  id: string;
  name?: string;
  workspace?: string;
  model?: string | { primary?: string };
  identity?: { emoji?: string; avatar?: string };
}

/** What the form edits; an empty model means "use the default model". */
export interface AgentFormValue {
  name: string;
  workspace: string;
  model: string;
  emoji: string;
}

export const EMPTY_AGENT_FORM: AgentFormValue = { name: "", workspace: "", model: "", emoji: "" };

export function ownModel(agent: AgentRow): string {
  return typeof agent.model === "string" ? agent.model : (agent.model?.primary ?? "");
}

export function agentFormValueOf(agent: AgentRow): AgentFormValue {
  return { name: agent.name ?? "", workspace: agent.workspace ?? "", model: ownModel(agent), emoji: agent.identity?.emoji ?? "" };
}

/** The `agents.create` params: blank optional fields are left out, so the gateway's defaults apply. */
export function createParams(value: AgentFormValue): Record<string, unknown> {
  const params: Record<string, unknown> = { name: value.name.trim() };
  if (value.workspace.trim()) params.workspace = value.workspace.trim();
  if (value.model) params.model = value.model;
  if (value.emoji.trim()) params.emoji = value.emoji.trim();
  return params;
}

/**
 * The `agents.update` params: only the fields that differ from the agent as listed. Choosing the
 * default model sends `model: null`, which removes the agent's own model.
 */
export function updateParams(agent: AgentRow, value: AgentFormValue): Record<string, unknown> {
  const before = agentFormValueOf(agent);
  const params: Record<string, unknown> = { agentId: agent.id };
  if (value.name.trim() !== before.name) params.name = value.name.trim();
  if (value.workspace.trim() !== before.workspace) params.workspace = value.workspace.trim();
  if (value.model !== before.model) params.model = value.model === "" ? null : value.model;
  if (value.emoji.trim() !== before.emoji) params.emoji = value.emoji.trim();
  return params;
}

export function readAgentForm(form: HTMLFormElement): AgentFormValue {
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  return { name: field("name").value, workspace: field("workspace").value, model: field("model").value, emoji: field("emoji").value };
}

export interface AgentFormOptions {
  /** Absent: the form creates a new agent. */
  editing?: AgentRow;
  /** `models.list` refs offered in the model select. */
  modelRefs: readonly string[];
  error?: string;
  onSubmit: (e: SubmitEvent) => void;
  /** Shown with the edit form only. */
  onCancel?: () => void;
}

/** The new-agent form, or the edit form of one agent; the gateway checks the values and names what is wrong. */
export function renderAgentForm(value: AgentFormValue, opts: AgentFormOptions): TemplateResult {
  const editing = Boolean(opts.editing);
  const title = editing ? `Edit ${opts.editing?.id}` : "New agent";
  // The agent's current model stays selectable even when models.list does not offer it.
  const refs = value.model && !opts.modelRefs.includes(value.model) ? [value.model, ...opts.modelRefs] : opts.modelRefs;
  return html`<form class="agent-form card" aria-label=${title} @submit=${opts.onSubmit}>
    <h3>${title}</h3>
    <label>Name <input name="name" required .value=${value.name} /></label>
    <label>Workspace
      <input name="workspace" .value=${value.workspace} placeholder=${editing ? "" : "empty: <state>/workspace-<id>"} />
      <small class="hint">An absolute path or one starting with <code>~/</code>.</small>
    </label>
    <label>Model
      <select name="model" .value=${value.model}>
        <option value="" ?selected=${value.model === ""}>default (the gateway's default model)</option>
        ${refs.map((ref) => html`<option value=${ref} ?selected=${value.model === ref}>${ref}</option>`)}
      </select>
    </label>
    <label>Emoji <input name="emoji" .value=${value.emoji} /></label>
    ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : nothing}
    <div class="actions">
      <button type="submit">${editing ? "Save agent" : "Create agent"}</button>
      ${editing && opts.onCancel ? html`<button type="button" @click=${opts.onCancel}>Cancel</button>` : nothing}
    </div>
  </form>`;
}
