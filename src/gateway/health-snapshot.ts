import path from "node:path";
import { listAgentConfigs } from "../agents/agent-config.js";
import type { GatewayRuntime } from "./runtime.js";
import type { HeartbeatSettings } from "../cron/heartbeat/heartbeat-settings.js";

/** An agent's heartbeat as health reports it: what the runner really does (off shows as 0m). */
function heartbeatOf(settings: HeartbeatSettings | undefined): Record<string, unknown> {
  if (!settings?.enabled) return { enabled: false, every: "0m", everyMs: 0 };
  return {
    enabled: true,
    every: settings.every,
    everyMs: settings.everyMs,
    prompt: settings.prompt,
    target: settings.target,
    ...(settings.model ? { model: settings.model } : {}),
    session: settings.isolatedSession ? "isolated" : "main",
    ackMaxChars: settings.ackMaxChars,
  };
}

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
  const heartbeats = new Map(runtime.heartbeats().map((h) => [h.agentId, h]));
  const agents = listAgentConfigs(config).map((a) => ({
    agentId: a.id,
    ...(a.name ? { name: a.name } : {}),
    isDefault: a.isDefault,
    heartbeat: heartbeatOf(heartbeats.get(a.id)),
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
    heartbeatSeconds: Math.round(((agents.find((a) => a.isDefault)!.heartbeat.everyMs as number) ?? 0) / 1000),
    channels: channels.channels,
    channelOrder: channels.channelOrder,
    channelLabels: channels.channelLabels,
    configReload: { hotReloadStatus: reload.hotReloadStatus === "watching" ? "active" : "disabled" },
    durationMs: Math.round(performance.now() - started),
  };
}
