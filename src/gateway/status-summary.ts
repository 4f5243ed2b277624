import path from "node:path";
import { defaultAgentId, listAgentConfigs } from "../agents/agent-config.js";
import { defaultModelRef, parseModelRef, resolveContextWindow } from "../models/index.js";
import type { GatewayRuntime } from "./runtime.js";

const RECENT_SESSIONS = 10;

/** The default model and its context window, as `status` reports them (null when none is set). */
function sessionDefaults(runtime: GatewayRuntime): { model: string | null; contextTokens: number | null } {
  const config = runtime.config();
  const ref = defaultModelRef(config);
  const parsed = ref ? parseModelRef(ref, config) : undefined;
  if (!ref || !parsed?.ok) return { model: ref ?? null, contextTokens: null };
  return { model: ref, contextTokens: resolveContextWindow(config, parsed.parts.provider, parsed.parts.id).tokens };
}

/**
 * The part of `status` OpenClaw's CLI builds `openclaw status` from: sessions per agent (store
 * path, count, most recent first), each agent's heartbeat, queued system events, and with
 * `includeCliProjection` the agent roster. Channel summaries are left to `channels.status`.
 */
export function buildStatusSummary(runtime: GatewayRuntime, options: { includeCliProjection?: boolean; showPaths: boolean }): Record<string, unknown> {
  const now = Date.now();
  const config = runtime.config();
  const agents = listAgentConfigs(config);
  const entries = [...runtime.sessions().list()].sort((a, b) => b.updatedAt - a.updatedAt);
  const rows = (list: typeof entries) => list.slice(0, RECENT_SESSIONS).map((e) => ({ key: e.sessionKey, agentId: e.agentId, updatedAt: e.updatedAt, age: now - e.updatedAt }));
  // Store paths reveal the operator's layout: only admins see them, as in OpenClaw.
  const storePath = (agentId: string) => (options.showPaths ? path.join(runtime.stateDir, "agents", agentId, "sessions", "sessions.json") : "[redacted]");
  const heartbeats = new Map(runtime.heartbeats().map((h) => [h.agentId, h]));
  return {
    heartbeat: {
      defaultAgentId: defaultAgentId(config),
      agents: agents.map((a) => {
        const beat = heartbeats.get(a.id);
        return beat?.enabled ? { agentId: a.id, enabled: true, every: beat.every, everyMs: beat.everyMs } : { agentId: a.id, enabled: false, every: "disabled", everyMs: null };
      }),
    },
    channelSummary: [],
    queuedSystemEvents: [],
    sessions: {
      paths: options.showPaths ? agents.map((a) => storePath(a.id)) : [],
      count: entries.length,
      defaults: sessionDefaults(runtime),
      recent: rows(entries),
      byAgent: agents.map((a) => {
        const own = entries.filter((e) => e.agentId === a.id);
        return { agentId: a.id, path: storePath(a.id), count: own.length, recent: rows(own) };
      }),
    },
    ...(options.includeCliProjection
      ? {
          cliProjection: {
            agents: { defaultId: defaultAgentId(config), ownership: null, selectionRequired: false, rows: agents.map((a) => ({ id: a.id, ...(a.name ? { name: a.name } : {}) })) },
            updateChannel: null,
          },
        }
      : {}),
  };
}
