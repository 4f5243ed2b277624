import { DEFAULT_MAX_DISK_BYTES, type OpenClawConfig } from "../config/index.js";
import { parseByteSize } from "../infra/byte-size.js";
import { parseDuration } from "../infra/duration.js";
import { isCronRunSessionKey } from "../sessions/keys/index.js";
import type { MaintenanceScope, PruneVerdict, RemovedFile, SessionStore } from "../sessions/store/index.js";

/** OpenClaw's `session.maintenance` defaults: prune after 30 days, at most 500 sessions per agent. */
export const PRUNE_AFTER_MS = 30 * 24 * 3600_000;
export const MAX_SESSIONS_PER_AGENT = 500;

/** How long the transcripts of a cron job's earlier isolated runs are kept (`cron.sessionRetention`). */
export const CRON_RUN_RETENTION = "24h";

/** `highWaterBytes` when unset: this share of `maxDiskBytes`. */
const HIGH_WATER_SHARE = 0.8;

/** `session.maintenance`: `enforce` archives, `warn` only reports what would be archived. */
export interface MaintenanceSettings {
  mode?: "enforce" | "warn";
  pruneAfter?: string;
  maxEntries?: number;
  /** Chat sessions active within this duration are kept by both rules; `false` or unset: no protection. */
  preserveRecent?: string | false;
  /** `cron.sessionRetention`: a duration, or `false` (a zero duration too) to keep them all. */
  cronSessionRetention?: string | false;
  /** Reset and deleted transcript archives older than this are removed; `false` or unset: kept. */
  resetArchiveRetention?: string | false;
  /** Each agent's sessions folder over this loses its oldest archives (default 10 GiB; `0` or `false`: no budget). */
  maxDiskBytes?: string | number | false;
  /** Where that cleanup stops (default 80% of `maxDiskBytes`). */
  highWaterBytes?: string | number;
}

/** The settings of a pass, from the config (`session.maintenance` and `cron.sessionRetention`). */
export function maintenanceSettingsOf(config: OpenClawConfig): MaintenanceSettings {
  return { ...config.session.maintenance, cronSessionRetention: config.cron?.sessionRetention };
}

export interface DiskBudget {
  maxBytes: number;
  highWaterBytes: number;
}

/** The disk budget the settings ask for; undefined when it is off (`0`, `"0"`, `false`). A high-water mark of 0 is the default share (validation refuses one above the budget). */
export function diskBudgetOf(maxDiskBytes: string | number | false | undefined, highWaterBytes: string | number | undefined): DiskBudget | undefined {
  if (maxDiskBytes === false) return undefined;
  const maxBytes = maxDiskBytes === undefined ? DEFAULT_MAX_DISK_BYTES : parseByteSize(maxDiskBytes);
  if (!maxBytes) return undefined;
  const high = highWaterBytes === undefined ? undefined : parseByteSize(highWaterBytes);
  return { maxBytes, highWaterBytes: high && high <= maxBytes ? high : Math.floor(maxBytes * HIGH_WATER_SHARE) };
}

/** What a pass applies, the settings read with their defaults. A retention of 0 (or absent) is off. */
export interface PassLimits {
  pruneAfterMs: number;
  maxEntries: number;
  preserveRecentMs?: number;
  cronRunRetentionMs: number;
  archiveRetentionMs: number;
  diskBudget?: DiskBudget;
}

export function passLimits(settings: MaintenanceSettings): PassLimits {
  const {
    pruneAfter,
    maxEntries = MAX_SESSIONS_PER_AGENT,
    preserveRecent,
    cronSessionRetention = CRON_RUN_RETENTION,
    resetArchiveRetention,
    maxDiskBytes,
    highWaterBytes,
  } = settings;
  const preserveRecentMs = typeof preserveRecent === "string" ? parseDuration(preserveRecent) : undefined;
  const diskBudget = diskBudgetOf(maxDiskBytes, highWaterBytes);
  return {
    pruneAfterMs: (pruneAfter !== undefined ? parseDuration(pruneAfter) : undefined) ?? PRUNE_AFTER_MS,
    maxEntries,
    ...(preserveRecentMs ? { preserveRecentMs } : {}),
    cronRunRetentionMs: cronSessionRetention === false ? 0 : (parseDuration(cronSessionRetention) ?? 0),
    archiveRetentionMs: typeof resetArchiveRetention === "string" ? (parseDuration(resetArchiveRetention) ?? 0) : 0,
    ...(diskBudget ? { diskBudget } : {}),
  };
}

export interface PassOptions {
  /** Only report what the pass would do, changing nothing. */
  dryRun?: boolean;
  /** Apply even when `mode` is `warn` (`openclaw sessions cleanup --enforce`). */
  enforce?: boolean;
  /** The agents the pass covers (default: every agent the store knows). */
  agentIds?: readonly string[];
  /** Sessions this pass never archives (`--active-key`); they still count toward `maxEntries`. */
  protectedKeys?: readonly string[];
}

/** An archived transcript a pass removed (or would remove). */
export interface RemovedArchive {
  file: string;
  bytes: number;
}

/** One agent's part of a pass. */
export interface AgentPassReport {
  agentId: string;
  /** The verdict on each session: archived for its age, for the cap, or kept and why (prune-plan.ts). */
  sessions: PruneVerdict[];
  /** Transcripts of cron jobs' earlier isolated runs older than `cron.sessionRetention`. */
  cronRunArchives: RemovedArchive[];
  /** Reset and deleted archives older than `resetArchiveRetention` (not counting those of cron runs, listed above). */
  expiredArchives: RemovedArchive[];
  /** The folder against `maxDiskBytes`: its size before and after, and the archives removed; undefined when there is no budget. */
  diskBudget?: DiskBudget & { usedBytes: number; afterBytes: number; removed: RemovedArchive[] };
}

export interface PassReport {
  /** `session.maintenance.mode` as configured. */
  mode: "enforce" | "warn";
  /** Whether the pass changed the store: false for a dry run, and in `warn` mode without `enforce` (then it is what is due). */
  applied: boolean;
  limits: PassLimits;
  agents: AgentPassReport[];
}

/**
 * One maintenance pass, the one the gateway runs at start-up and hourly and `openclaw sessions
 * cleanup` runs on demand. In order: sessions idle past `pruneAfter` or beyond `maxEntries` are
 * archived (never a protected one, prune-plan.ts), the transcripts of cron jobs' earlier isolated
 * runs older than `cron.sessionRetention` are removed, then reset and deleted archives older than
 * `resetArchiveRetention`, and last the oldest archives of a folder over `maxDiskBytes` (the steps
 * before may already have brought it under). In `warn` mode (unless `enforce`), and in a dry run,
 * nothing changes and the report says what is due, the disk budget counted as if the steps
 * before it had run.
 */
export function runMaintenancePass(store: SessionStore, settings: MaintenanceSettings = {}, options: PassOptions = {}): PassReport {
  const mode = settings.mode ?? "enforce";
  const limits = passLimits(settings);
  const applied = options.dryRun !== true && (mode === "enforce" || options.enforce === true);
  const scope: MaintenanceScope = { dryRun: !applied, ...(options.agentIds ? { agentIds: options.agentIds } : {}) };
  const now = Date.now();
  const pruned = store.prune(
    {
      maxAgeMs: limits.pruneAfterMs,
      maxEntries: limits.maxEntries,
      ...(limits.preserveRecentMs ? { preserveRecentMs: limits.preserveRecentMs } : {}),
      ...(options.protectedKeys ? { protectedKeys: options.protectedKeys } : {}),
    },
    scope,
  );
  const cronRuns = limits.cronRunRetentionMs > 0 ? store.removeArchives({ kinds: ["reset"], before: now - limits.cronRunRetentionMs, keyMatches: isCronRunSessionKey }, scope) : [];
  const cronRunFiles = new Set(cronRuns.map((f) => f.file));
  const expired = (
    limits.archiveRetentionMs > 0 ? store.removeArchives({ kinds: ["reset", "deleted"], before: now - limits.archiveRetentionMs, keyMatches: () => true }, scope) : []
  ).filter((f) => !cronRunFiles.has(f.file));
  const archivedTranscripts = pruned.flatMap((a) => a.verdicts.filter((v) => v.action !== "keep").map((v) => v.sessionFile));
  const assume = applied ? {} : { assume: { removed: new Set([...cronRunFiles, ...expired.map((f) => f.file)]), archived: new Set(archivedTranscripts) } };
  const budgets = limits.diskBudget ? store.enforceDiskBudget(limits.diskBudget.maxBytes, limits.diskBudget.highWaterBytes, { ...scope, ...assume }) : [];

  const reports = new Map<string, AgentPassReport>();
  const reportOf = (agentId: string) => {
    let report = reports.get(agentId);
    if (!report) reports.set(agentId, (report = { agentId, sessions: [], cronRunArchives: [], expiredArchives: [] }));
    return report;
  };
  for (const { agentId, verdicts } of pruned) reportOf(agentId).sessions = verdicts;
  for (const f of cronRuns) reportOf(f.agentId).cronRunArchives.push(removedArchive(f));
  for (const f of expired) reportOf(f.agentId).expiredArchives.push(removedArchive(f));
  for (const { agentId, usedBytes, afterBytes, remove } of budgets) {
    reportOf(agentId).diskBudget = { ...limits.diskBudget!, usedBytes, afterBytes, removed: remove.map((f) => ({ file: f.file, bytes: f.bytes })) };
  }
  return { mode, applied, limits, agents: [...reports.values()] };
}

function removedArchive(f: RemovedFile): RemovedArchive {
  return { file: f.file, bytes: f.bytes };
}
