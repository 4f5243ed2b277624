import type { OpenClawConfig } from "../config/index.js";
import { isLocalBaseUrl, listConfiguredModels } from "../models/index.js";
import { listAgentConfigs } from "./agent-config.js";

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
}

export interface ModelsViewQuery {
  /** Checked against the config; every agent sees the same configured models. */
  agentId?: string;
  provider?: string;
  /** Only models a request could be made to now (a known provider with a key). */
  availableOnly?: boolean;
  includeDetails?: boolean;
}

/**
 * The models the config names (listConfiguredModels), filtered by provider and availability.
 * An agent id the config does not define is refused with its message.
 */
export function modelsView(config: OpenClawConfig, env: NodeJS.ProcessEnv, query: ModelsViewQuery): { ok: true; models: ModelsViewRow[] } | { ok: false; message: string } {
  const agentId = query.agentId?.toLowerCase();
  if (agentId && !listAgentConfigs(config).some((a) => a.id === agentId)) return { ok: false, message: `unknown agent "${agentId}"` };
  const rows = listConfiguredModels(config, env).filter((m) => (!query.provider || m.provider === query.provider) && (!query.availableOnly || m.available));
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
    })),
  };
}
