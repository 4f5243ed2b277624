import { Type } from "@sinclair/typebox";
import { buildHealthSnapshot } from "../health-snapshot.js";
import { buildStatusSummary } from "../status-summary.js";
import type { MethodRegistry } from "./registry.js";

const Empty = Type.Object({}, { additionalProperties: false });

/** `health`, `status` and `system-presence`: the gateway describing itself. */
export function registerSystemMethods(registry: MethodRegistry): void {
  registry.register({
    name: "health",
    scope: "operator.read",
    params: Type.Object({ probe: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    handler: (_params, { runtime }) => buildHealthSnapshot(runtime),
  });

  registry.register({
    name: "status",
    scope: "operator.read",
    // Fields the OpenClaw CLI sends; this summary always includes what it has.
    params: Type.Object({ includeChannelSummary: Type.Optional(Type.Boolean()), includeCliProjection: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    handler: (params, { runtime, caller }) => {
      const loaded = runtime.loadedConfig();
      const isAdmin = caller.scopes.includes("operator.admin");
      return {
        ok: true,
        ts: Date.now(),
        version: runtime.version,
        runtimeVersion: runtime.version,
        pid: process.pid,
        host: runtime.host,
        port: runtime.port,
        uptimeMs: Date.now() - runtime.startedAt,
        authMode: runtime.authMode,
        connections: runtime.connectionCount(),
        ...(runtime.tls() ? { tls: runtime.tls() } : {}),
        presenceCount: runtime.presence.list().length,
        processMemory: (({ rss, heapTotal, heapUsed, external, arrayBuffers }) => ({
          rssBytes: rss,
          heapTotalBytes: heapTotal,
          heapUsedBytes: heapUsed,
          externalBytes: external,
          arrayBuffersBytes: arrayBuffers,
        }))(process.memoryUsage()),
        logging: (({ file, ...health }) => (isAdmin ? { file, ...health } : health))(runtime.logFileHealth()),
        // One summary per channel; `channels.status` has the per-account details.
        channels: runtime.channelsStatus().channels,
        configReload: runtime.configReloadStatus(),
        // What OpenClaw's `openclaw status` reads: sessions by agent, heartbeats, the agent roster.
        ...buildStatusSummary(runtime, { ...params, showPaths: isAdmin }),
        // Paths reveal the operator's layout; only admins see them.
        ...(isAdmin ? { stateDir: runtime.stateDir, configPath: loaded.path, configHash: loaded.hash } : {}),
      };
    },
  });

  registry.register({
    name: "system-presence",
    scope: "operator.read",
    params: Empty,
    handler: (_params, { runtime }) => runtime.presence.list(),
  });
}
