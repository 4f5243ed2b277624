import { html, nothing, type TemplateResult } from "lit";
import { ViewElement } from "./view-element.js";
import { call, errorBox, recordTable, unavailable } from "../view-helpers.js";

type Section = { title: string; method: string; body?: TemplateResult; error?: string; missing?: boolean };

/** Agents, the models they may use, and the tools each one has (what `tools explain` prints). */
export class AgentsView extends ViewElement {
  static properties = { ...ViewElement.properties, sections: { state: true } };
  declare sections: Section[];

  constructor() {
    super();
    this.sections = [];
  }

  protected async load(): Promise<void> {
    const [agents, models, tools] = await Promise.all([
      call<{ defaultId?: string; agents: Record<string, unknown>[] }>(this.client, "agents.list"),
      call<{ models: Record<string, unknown>[] }>(this.client, "models.list"),
      call<Record<string, unknown>>(this.client, "tools.effective"),
    ]);
    this.sections = [
      section("Agents", "agents.list", agents, (v) =>
        recordTable(
          v.agents.map((a) => ({ ...a, default: a.id === v.defaultId })),
          ["id", "name", "default", "model", "workspace"],
        ),
      ),
      section("Models", "models.list", models, (v) => recordTable(v.models, ["id", "name", "provider", "contextWindow", "reasoning"])),
      section("Tools", "tools.effective", tools, (v) => recordTable(toolRows(v))),
    ];
  }

  protected render() {
    return html`<section aria-label="Agents and tools">
      <h2>Agents & tools</h2>
      ${this.sections.map((s) => html`<h3>${s.title}</h3>${s.missing ? unavailable(s.method) : nothing}${errorBox(s.error)}${s.body ?? nothing}`)}
    </section>`;
  }
}

function section<T>(title: string, method: string, res: Awaited<ReturnType<typeof call<T>>>, body: (value: T) => TemplateResult): Section {
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
