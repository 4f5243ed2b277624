import type { OpenClawConfig } from "../config/index.js";
import { isLocalBaseUrl, listConfiguredModels, parseModelRef } from "../models/index.js";
import { agentModelChoice, defaultAgentId, listAgentConfigs, resolveAgentConfig } from "./agent-config.js";
import { modelAllowed } from "./model-policy.js";

/** One model as `models.list` answers it (and `openclaw models list` shows it). */
export interface ModelsViewRow {
  id: string;
  name: string;
  provider: string;
  ref: string;
  contextWindow: number;
  reasoning: boolean;
  input: ("text" | "image")[];
  available: boolean;
  /** With `includeDetails`, for a model whose provider resolves: its baseUrl is this machine or the local network. */
  local?: boolean;
  /** The model's part in the agent's config, as OpenClaw tags it: `default`, `fallback#<n>`, `configured`. */
  tags: string[];
  /** Its `agents.defaults.models.<ref>.alias`, when it has one. */
  alias?: string;
}

export interface ModelsViewQuery {
  /** The agent whose model chain the tags describe (default: the default agent); one the config does not define is refused. */
  agentId?: string;
  provider?: string;
  /** Only models a request could be made to now (a known provider with a key). */
  availableOnly?: boolean;
  /** Only models the agent's `modelPolicy.allow` allows. */
  allowedOnly?: boolean;
  includeDetails?: boolean;
}

/**
 * The models the config names (listConfiguredModels, with the agent's own model and fallbacks
 * and the `agents.defaults.models` entries), filtered by provider, availability and the agent's
 * model policy, each tagged with its part in the agent's config.
 */
export function modelsView(config: OpenClawConfig, env: NodeJS.ProcessEnv, query: ModelsViewQuery): { ok: true; models: ModelsViewRow[] } | { ok: false; message: string } {
  const agentId = query.agentId?.toLowerCase() ?? defaultAgentId(config);
  if (!listAgentConfigs(config).some((a) => a.id === agentId)) return { ok: false, message: `unknown agent "${agentId}"` };
  const roles = modelRoles(config, agentId);
  const rows = listConfiguredModels(config, env, [...roles.tags.keys()]).filter(
    (m) => (!query.provider || m.provider === query.provider) && (!query.availableOnly || m.available) && (!query.allowedOnly || modelAllowed(config, agentId, m.ref).ok),
  );
  return {
    ok: true,
    models: rows.map((m) => ({
      id: m.id,
      name: m.name ?? m.id,
      provider: m.provider,
      ref: m.ref,
      contextWindow: m.contextWindow,
      reasoning: m.reasoning,
      input: m.input,
      available: m.available,
      ...(query.includeDetails && m.baseUrl ? { local: isLocalBaseUrl(m.baseUrl) } : {}),
      tags: roles.tags.get(m.ref) ?? [],
      ...(roles.aliases.has(m.ref) ? { alias: roles.aliases.get(m.ref) } : {}),
    })),
  };
}

/** provider/model → its tags for this agent, and → its alias. Refs that do not parse are left out. */
function modelRoles(config: OpenClawConfig, agentId: string): { tags: Map<string, string[]>; aliases: Map<string, string> } {
  const tags = new Map<string, string[]>();
  const aliases = new Map<string, string>();
  const canonical = (raw: string) => {
    const parsed = parseModelRef(raw, config);
    return parsed.ok ? `${parsed.parts.provider}/${parsed.parts.id}` : undefined;
  };
  const tag = (raw: string, name: string) => {
    const ref = canonical(raw);
    if (!ref) return;
    const list = tags.get(ref) ?? [];
    if (!list.includes(name)) list.push(name);
    tags.set(ref, list);
  };
  const choice = agentModelChoice(config, resolveAgentConfig(config, agentId));
  if (choice.primary) tag(choice.primary, "default");
  choice.fallbacks.forEach((raw, i) => tag(raw, `fallback#${i + 1}`));
  for (const [raw, entry] of Object.entries(config.agents?.defaults?.models ?? {})) {
    if (raw.trim().endsWith("/*")) continue;
    tag(raw, "configured");
    const ref = canonical(raw);
    if (ref && entry?.alias) aliases.set(ref, entry.alias);
  }
  return { tags, aliases };
}
