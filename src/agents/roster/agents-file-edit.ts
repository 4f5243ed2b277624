import { normalizeAgentId } from "../agent-config.js";
import { AgentRosterError, definesNoAgents, type AgentsConfigFile, type ConfigFilePatch } from "./agents-file.js";
import type { Binding } from "./route-bindings.js";

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

/** `fields` over `target`: objects merge key by key (an identity keeps the fields not given), anything else replaces. */
function mergeFields(target: Fields, fields: Fields): Fields {
  const out: Fields = { ...target };
  for (const [key, value] of Object.entries(fields)) out[key] = isObject(value) && isObject(out[key]) ? mergeFields(out[key] as Fields, value) : value;
  return out;
}

/** `fields` with its `null` values (keys to remove) dropped, at any depth: a rewritten list holds no removal markers. */
function withoutNulls(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (value !== null) out[key] = isObject(value) ? withoutNulls(value) : value;
  return out;
}

/**
 * The edits of one agent roster change (a CLI `agents` command, a gateway `agents.*` method) to the config file, in the spelling the file uses: an agent
 * under `agents.entries` is patched there, one in the legacy `agents.list` by rewriting that
 * list, and `bindings` is rewritten whole. An agent the file does not hold (one an `$include`
 * defines) cannot be changed here; the implicit `main` of a config without agents is written as
 * `agents.entries.main`.
 */
export class AgentsFileEdit {
  private readonly entries: Record<string, Fields | null> = {};
  private list: unknown[] | undefined;
  private bindings: Binding[] | null | undefined;

  constructor(private readonly file: AgentsConfigFile) {}

  private rawAgents(): Fields {
    return isObject(this.file.raw.agents) ? this.file.raw.agents : {};
  }

  private entryKey(agentId: string): string | undefined {
    const entries = this.rawAgents().entries;
    return isObject(entries) ? Object.keys(entries).find((key) => normalizeAgentId(key) === agentId) : undefined;
  }

  private workingList(): unknown[] {
    if (!this.list) {
      const list = this.rawAgents().list;
      this.list = Array.isArray(list) ? [...list] : [];
    }
    return this.list;
  }

  private listIndex(agentId: string): number {
    const list = this.rawAgents().list;
    if (!Array.isArray(list)) return -1;
    return this.workingList().findIndex((item) => isObject(item) && typeof item.id === "string" && normalizeAgentId(item.id) === agentId);
  }

  private notInFile(agentId: string): AgentRosterError {
    return new AgentRosterError(`Agent "${agentId}" is not written in ${this.file.file} (an $include defines it?): edit the file that defines it by hand. Config was not changed.`);
  }

  /** A new agent under `agents.entries`, after any the file holds. */
  addAgent(agentId: string, fields: Fields): void {
    this.entries[agentId] = fields;
  }

  /** Sets keys of an existing agent's entry (objects merge, as `identity` does; a `null` removes the key). */
  setFields(agentId: string, fields: Fields): void {
    const key = this.entryKey(agentId);
    if (key !== undefined) {
      this.entries[key] = mergeFields(this.entries[key] ?? {}, fields);
      return;
    }
    const index = this.listIndex(agentId);
    if (index >= 0) {
      const list = this.workingList();
      list[index] = withoutNulls(mergeFields(list[index] as Fields, fields));
      return;
    }
    if (agentId !== "main" || !definesNoAgents(this.file)) throw this.notInFile(agentId);
    this.entries.main = mergeFields(this.entries.main ?? {}, fields);
  }

  /** Removes the agent from both spellings. */
  removeAgent(agentId: string): void {
    const key = this.entryKey(agentId);
    const inList = this.listIndex(agentId) >= 0;
    if (key === undefined && !inList) throw this.notInFile(agentId);
    if (key !== undefined) this.entries[key] = null;
    if (inList) this.list = this.workingList().filter((item) => !(isObject(item) && typeof item.id === "string" && normalizeAgentId(item.id) === agentId));
  }

  /** The new `bindings` list; an empty one removes the key. */
  setBindings(bindings: readonly Binding[]): void {
    this.bindings = bindings.length > 0 ? [...bindings] : null;
  }

  toPatch(): ConfigFilePatch {
    const agents: Fields = {};
    if (Object.keys(this.entries).length > 0) agents.entries = this.entries;
    if (this.list) agents.list = this.list;
    const patch: Fields = {};
    if (Object.keys(agents).length > 0) patch.agents = agents;
    if (this.bindings !== undefined) patch.bindings = this.bindings;
    return { patch, replacePaths: ["agents.list", "bindings"] };
  }
}
