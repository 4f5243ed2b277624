import type { LogFileHealth } from "../infra/log-file.js";
import type { Logger } from "../infra/logger.js";
import type { ConfigIssue, ExecSecretReads, LoadedConfig, OpenClawConfig, RuntimeOverride } from "../config/index.js";
import type { PresenceTracker } from "./presence.js";
import type { AuthMode } from "./auth/resolve-auth.js";
import type { HeartbeatSettings } from "../cron/heartbeat/heartbeat-settings.js";

/**
 * What RPC methods may see of the running gateway. Methods get this, never the server object,
 * so a method cannot reach into sockets or the HTTP layer.
 */
export interface GatewayRuntime {
  readonly version: string;
  readonly startedAt: number;
  readonly stateDir: string;
  readonly host: string;
  readonly port: number;
  readonly authMode: AuthMode;
  readonly logger: Logger;
  logFileHealth(): LogFileHealth;
  readonly presence: PresenceTracker;
  config(): OpenClawConfig;
  loadedConfig(): LoadedConfig;
  configReloadStatus(): ConfigReloadStatus;
  /** The file config edits write: the loaded one, or where a first one is created. */
  configFilePath(): string;
  /**
   * Re-reads the config file now and applies it as the file watcher would (after a config.* write).
   * `rereadSecrets` compares it key by key even when the file is unchanged (its SecretRefs are read again);
   * `execReads` gives exec SecretRefs' answers fetched beforehand (else the last load's are used).
   */
  reloadConfigNow(opts?: { rereadSecrets?: boolean; execReads?: ExecSecretReads }): ConfigReloadOutcome;
  /** Config values set in memory only (`/debug`), over the file: listed, changed, dropped. */
  runtimeOverrides: RuntimeOverridesControl;
  /**
   * Restart the whole gateway in this process after `delayMs` (clients get `shutdown` with
   * `restartExpectedMs`, then reconnect). Not scheduled when this gateway cannot restart itself
   * (it runs inside another program) — `reason` then says so.
   */
  requestRestart(reason: string, delayMs: number): RestartPlan;
  /** What would stop the gateway from starting again with `config` (with this process's flags and env), by key; empty when nothing would. */
  startRefusals(config: OpenClawConfig): ConfigIssue[];
  connectionCount(): number;
  /** The certificate new connections are served, when the gateway listens with TLS (gateway.tls). */
  tls(): GatewayTlsStatus | undefined;
  ready(): boolean;
  sessions(): import("../sessions/store/index.js").SessionStore;
  /** Each agent's heartbeat settings, as the heartbeat runner applies them (docs/automation.md#heartbeat). */
  heartbeats(): readonly HeartbeatSettings[];
  /** The `channels.status` payload (empty lists when no channel is configured). */
  channelsStatus(): Record<string, unknown>;
  /** Push an event to every authenticated connection allowed to see it (and passing `filter`). */
  broadcast(event: string, payload: unknown, opts?: { filter?: (conn: { caps: readonly string[]; connId: string }) => boolean; droppable?: boolean }): void;
}

export interface ConfigReloadStatus {
  hotReloadStatus: "watching" | "off" | "error";
  lastReloadAt?: number;
  lastError?: string;
  pendingRestartPaths: string[];
}

export type RestartPlan = { scheduled: true; delayMs: number } | { scheduled: false; reason: string };

export interface ConfigReloadOutcome {
  /** False when hot reload is off (gateway.reload.mode: off): the change waits for a restart. */
  applied: boolean;
  changedPaths: string[];
  restartRequiredPaths: string[];
}

/** What `status` shows of the served TLS certificate. */
export interface GatewayTlsStatus {
  /** SHA-256, lowercase hex: what a client pins. */
  fingerprintSha256: string;
  validTo: string;
}

/**
 * The running gateway's runtime overrides. A change is validated with the file's content under it
 * and applied as a hot reload would; one that would need a restart is refused (a restart drops
 * every override).
 */
export interface RuntimeOverridesControl {
  list(): RuntimeOverride[];
  set(path: string, value: unknown): RuntimeOverrideOutcome;
  unset(path: string): RuntimeOverrideOutcome;
  reset(): RuntimeOverrideOutcome;
}

export type RuntimeOverrideOutcome = { ok: true; changedPaths: string[] } | { ok: false; message: string };
