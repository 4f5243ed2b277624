import type { OpenClawConfig } from "../config/index.js";
import type { GatewayRuntime } from "./runtime.js";

export interface AgentSummary {
  agentId: string;
  name?: string;
  isDefault: boolean;
}

/** Agents named in config (`agents.entries` or legacy `agents.list`); `main` when none. */
export function listConfiguredAgents(config: OpenClawConfig): AgentSummary[] {
  const agents = (config.agents ?? {}) as {
    list?: { id: string; name?: string; default?: boolean }[];
    entries?: Record<string, { name?: string; default?: boolean }>;
  };
  const found: { agentId: string; name?: string; default?: boolean }[] = [];
  for (const entry of agents.list ?? []) found.push({ agentId: entry.id.toLowerCase(), name: entry.name, default: entry.default });
  for (const [id, entry] of Object.entries(agents.entries ?? {})) {
    found.push({ agentId: id.toLowerCase(), name: entry?.name, default: entry?.default });
  }
  if (found.length === 0) return [{ agentId: "main", isDefault: true }];
  const defaultId = (found.find((a) => a.default) ?? found[0]!).agentId;
  return found.map((a) => ({ agentId: a.agentId, ...(a.name ? { name: a.name } : {}), isDefault: a.agentId === defaultId }));
}

export function defaultAgentId(config: OpenClawConfig): string {
  return listConfiguredAgents(config).find((a) => a.isDefault)!.agentId;
}

/**
 * HealthSnapshot (reference §1.3.3). `ok: true` means "snapshot produced". Only subsystems this
 * gateway runs appear; channels stay empty until channel plugins exist.
 */
export function buildHealthSnapshot(runtime: GatewayRuntime): Record<string, unknown> {
  const started = performance.now();
  const config = runtime.config();
  const agents = listConfiguredAgents(config);
  const now = Date.now();
  return {
    ok: true,
    ts: now,
    readiness: { ready: runtime.ready() },
    defaultAgentId: agents.find((a) => a.isDefault)!.agentId,
    agents: agents.map((a) => ({ ...a })),
    channels: {},
    channelOrder: [],
    channelLabels: {},
    configReload: runtime.configReloadStatus(),
    gateway: {
      pid: process.pid,
      host: runtime.host,
      port: runtime.port,
      version: runtime.version,
      uptimeMs: now - runtime.startedAt,
      connections: runtime.connectionCount(),
      rssBytes: process.memoryUsage.rss(),
    },
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
  };
}
