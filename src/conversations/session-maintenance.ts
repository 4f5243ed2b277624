import type { Logger } from "../infra/logger.js";
import { DEFAULT_MAX_DISK_BYTES } from "../config/index.js";
import { formatByteSize, parseByteSize } from "../infra/byte-size.js";
import { parseDuration } from "../infra/duration.js";
import type { DiskBudgetPlan, SessionStore } from "../sessions/store/index.js";
import { isCronRunSessionKey } from "../sessions/keys/index.js";

/** OpenClaw's `session.maintenance` defaults: prune after 30 days, at most 500 sessions per agent. */
export const PRUNE_AFTER_MS = 30 * 24 * 3600_000;
export const MAX_SESSIONS_PER_AGENT = 500;
/** A transcript past this size is rotated after a run (its recent history carried over). */
export const MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;
const PRUNE_EVERY_MS = 3600_000;

/** How long the transcripts of a cron job's earlier isolated runs are kept (`cron.sessionRetention`). */
export const CRON_RUN_RETENTION = "24h";

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

/** `highWaterBytes` when unset: this share of `maxDiskBytes`. */
const HIGH_WATER_SHARE = 0.8;

/**
 * Keeps the session store bounded: expired and excess sessions are archived at start-up and
 * hourly (never one with a running turn), the transcripts of cron jobs' earlier isolated runs
 * (their session's reset archives) are removed once older than `cron.sessionRetention`, reset and
 * deleted archives once older than `resetArchiveRetention`, the oldest archives of a sessions
 * folder over `maxDiskBytes` down to `highWaterBytes`, and big transcripts are rotated after
 * their run. The settings are read at each pass, so a config reload
 * applies at the next one.
 */
export function startSessionMaintenance(
  store: SessionStore,
  logger: Logger,
  settings: () => MaintenanceSettings | undefined = () => undefined,
): { rotateIfLarge(sessionKey: string): boolean; stop(): void } {
  const prune = () => {
    try {
      const {
        mode = "enforce",
        pruneAfter,
        maxEntries = MAX_SESSIONS_PER_AGENT,
        preserveRecent,
        cronSessionRetention = CRON_RUN_RETENTION,
        resetArchiveRetention,
        maxDiskBytes,
        highWaterBytes,
      } = settings() ?? {};
      const preserveRecentMs = typeof preserveRecent === "string" ? parseDuration(preserveRecent) : undefined;
      const options = {
        maxAgeMs: (pruneAfter !== undefined ? parseDuration(pruneAfter) : undefined) ?? PRUNE_AFTER_MS,
        maxEntries,
        ...(preserveRecentMs ? { preserveRecentMs } : {}),
      };
      const retentionMs = cronSessionRetention === false ? 0 : (parseDuration(cronSessionRetention) ?? 0);
      const cronRuns = retentionMs > 0 ? { kinds: ["reset"] as const, before: Date.now() - retentionMs, keyMatches: isCronRunSessionKey } : undefined;
      const archiveRetentionMs = typeof resetArchiveRetention === "string" ? (parseDuration(resetArchiveRetention) ?? 0) : 0;
      const oldArchives = archiveRetentionMs > 0 ? { kinds: ["reset", "deleted"] as const, before: Date.now() - archiveRetentionMs, keyMatches: () => true } : undefined;
      const budget = diskBudgetOf(maxDiskBytes, highWaterBytes);
      if (mode === "warn") {
        const due = store.prune(options, { dryRun: true });
        if (due.length > 0) logger.warn({ count: due.length, sessions: due.slice(0, 20) }, "sessions due for archiving kept (session.maintenance.mode is warn)");
        const runs = cronRuns ? store.removeArchives(cronRuns, { dryRun: true }) : [];
        if (runs.length > 0) logger.warn({ count: runs.length }, "transcripts of earlier cron runs past cron.sessionRetention kept (session.maintenance.mode is warn)");
        const expired = oldArchives ? store.removeArchives(oldArchives, { dryRun: true }) : [];
        if (expired.length > 0)
          logger.warn({ count: expired.length }, "reset and deleted transcript archives past session.maintenance.resetArchiveRetention kept (session.maintenance.mode is warn)");
        for (const over of budget ? store.enforceDiskBudget(budget.maxBytes, budget.highWaterBytes, { dryRun: true }) : []) reportBudget(logger, over, budget!, true);
        return;
      }
      const removed = store.prune(options);
      if (removed.length > 0) logger.info({ count: removed.length }, "expired sessions archived");
      const runs = cronRuns ? store.removeArchives(cronRuns) : [];
      if (runs.length > 0) logger.info({ count: runs.length }, "transcripts of earlier cron runs past cron.sessionRetention removed");
      const expired = oldArchives ? store.removeArchives(oldArchives) : [];
      if (expired.length > 0) logger.info({ count: expired.length }, "reset and deleted transcript archives past session.maintenance.resetArchiveRetention removed");
      // Last: the passes above may already have brought a folder under its budget.
      for (const over of budget ? store.enforceDiskBudget(budget.maxBytes, budget.highWaterBytes) : []) reportBudget(logger, over, budget!, false);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "session pruning failed");
    }
  };
  prune();
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  return {
    rotateIfLarge(sessionKey: string): boolean {
      try {
        const result = store.rotateIfLarge(sessionKey, MAX_TRANSCRIPT_BYTES);
        if (result.rotated) logger.info({ sessionKey, keptEntries: result.keptEntries }, "large transcript rotated");
        return result.rotated;
      } catch (err) {
        logger.warn({ sessionKey, err: (err as Error).message }, "transcript rotation failed");
        return false;
      }
    },
    stop: () => clearInterval(timer),
  };
}

interface DiskBudget {
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

function reportBudget(logger: Logger, over: { agentId: string } & DiskBudgetPlan, budget: DiskBudget, dryRun: boolean): void {
  const facts = {
    agentId: over.agentId,
    usedBytes: over.usedBytes,
    maxDiskBytes: budget.maxBytes,
    archives: over.remove.length,
    freedBytes: over.usedBytes - over.afterBytes,
    afterBytes: over.afterBytes,
  };
  const sizes = `${formatByteSize(over.usedBytes)} of ${formatByteSize(budget.maxBytes)}`;
  if (dryRun) {
    logger.warn(facts, `agent ${over.agentId}'s sessions take ${sizes}: ${over.remove.length} archives due for removal kept (session.maintenance.mode is warn)`);
    return;
  }
  if (over.remove.length > 0)
    logger.info(facts, `agent ${over.agentId}'s sessions took ${sizes}: removed the ${over.remove.length} oldest archives (session.maintenance.maxDiskBytes)`);
  if (over.afterBytes > budget.highWaterBytes) {
    logger.warn(
      facts,
      `agent ${over.agentId}'s sessions still take ${formatByteSize(over.afterBytes)}, over session.maintenance.maxDiskBytes' target of ${formatByteSize(budget.highWaterBytes)}: what is left is live transcripts (prune sessions, lower pruneAfter or maxEntries, or raise maxDiskBytes)`,
    );
  }
}
