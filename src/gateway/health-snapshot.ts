import { listAgentConfigs } from "../agents/agent-config.js";
import type { GatewayRuntime } from "./runtime.js";

/**
 * HealthSnapshot (reference §1.3.3). `ok: true` means "snapshot produced". Only subsystems this
 * gateway runs appear; channels stay empty until channel plugins exist.
 */
export function buildHealthSnapshot(runtime: GatewayRuntime): Record<string, unknown> {
  const started = performance.now();
  const config = runtime.config();
  const agents = listAgentConfigs(config).map((a) => ({ agentId: a.id, ...(a.name ? { name: a.name } : {}), isDefault: a.isDefault }));
  const now = Date.now();
  return {
    ok: true,
    ts: now,
    readiness: { ready: runtime.ready() },
    defaultAgentId: agents.find((a) => a.isDefault)!.agentId,
    agents,
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
