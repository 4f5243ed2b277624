import path from "node:path";
import { listAgentConfigs } from "../agents/agent-config.js";
import type { GatewayRuntime } from "./runtime.js";

const RECENT_SESSIONS = 5;

/**
 * HealthSnapshot, in the closed shape real OpenClaw 2026.9 clients validate:
 * `ok: true` means "snapshot produced". Process facts (pid, port, memory) live in `status`.
 */
export function buildHealthSnapshot(runtime: GatewayRuntime): Record<string, unknown> {
  const started = performance.now();
  const now = Date.now();
  const config = runtime.config();
  const allEntries = runtime.sessions().list();
  const sessionsFor = (agentId?: string) => {
    const entries = agentId ? allEntries.filter((e) => e.agentId === agentId) : allEntries;
    return {
      path: agentId ? path.join(runtime.stateDir, "agents", agentId, "sessions", "sessions.json") : path.join(runtime.stateDir, "agents"),
      count: entries.length,
      recent: entries.slice(0, RECENT_SESSIONS).map((e) => ({ key: e.sessionKey, updatedAt: e.updatedAt, age: now - e.updatedAt })),
    };
  };
  const agents = listAgentConfigs(config).map((a) => ({
    agentId: a.id,
    ...(a.name ? { name: a.name } : {}),
    isDefault: a.isDefault,
    // This build has no heartbeat runner (it belongs with cron): reported as disabled, in the shape clients validate.
    heartbeat: { enabled: false, every: "0m", everyMs: 0 },
    sessions: sessionsFor(a.id),
  }));
  const reload = runtime.configReloadStatus();
  const channels = runtime.channelsStatus();
  return {
    ok: true,
    ts: now,
    defaultAgentId: agents.find((a) => a.isDefault)!.agentId,
    agents,
    sessions: sessionsFor(),
    heartbeatSeconds: 0,
    channels: channels.channels,
    channelOrder: channels.channelOrder,
    channelLabels: channels.channelLabels,
    configReload: { hotReloadStatus: reload.hotReloadStatus === "watching" ? "active" : "disabled" },
    durationMs: Math.round(performance.now() - started),
  };
}
