import type { Logger } from "../infra/logger.js";
import { parseDuration } from "../infra/duration.js";
import type { SessionStore } from "../sessions/store/index.js";
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
}

/**
 * Keeps the session store bounded: expired and excess sessions are archived at start-up and
 * hourly (never one with a running turn), the transcripts of cron jobs' earlier isolated runs
 * (their session's reset archives) are removed once older than `cron.sessionRetention`, and big
 * transcripts are rotated after their run. The settings are read at each pass, so a config reload
 * applies at the next one.
 */
export function startSessionMaintenance(
  store: SessionStore,
  logger: Logger,
  settings: () => MaintenanceSettings | undefined = () => undefined,
): { rotateIfLarge(sessionKey: string): boolean; stop(): void } {
  const prune = () => {
    try {
      const { mode = "enforce", pruneAfter, maxEntries = MAX_SESSIONS_PER_AGENT, preserveRecent, cronSessionRetention = CRON_RUN_RETENTION } = settings() ?? {};
      const preserveRecentMs = typeof preserveRecent === "string" ? parseDuration(preserveRecent) : undefined;
      const options = {
        maxAgeMs: (pruneAfter !== undefined ? parseDuration(pruneAfter) : undefined) ?? PRUNE_AFTER_MS,
        maxEntries,
        ...(preserveRecentMs ? { preserveRecentMs } : {}),
      };
      const retentionMs = cronSessionRetention === false ? 0 : (parseDuration(cronSessionRetention) ?? 0);
      const cronRuns = retentionMs > 0 ? { kinds: ["reset"] as const, before: Date.now() - retentionMs, keyMatches: isCronRunSessionKey } : undefined;
      if (mode === "warn") {
        const due = store.prune(options, { dryRun: true });
        if (due.length > 0) logger.warn({ count: due.length, sessions: due.slice(0, 20) }, "sessions due for archiving kept (session.maintenance.mode is warn)");
        const runs = cronRuns ? store.removeArchives(cronRuns, { dryRun: true }) : [];
        if (runs.length > 0) logger.warn({ count: runs.length }, "transcripts of earlier cron runs past cron.sessionRetention kept (session.maintenance.mode is warn)");
        return;
      }
      const removed = store.prune(options);
      if (removed.length > 0) logger.info({ count: removed.length }, "expired sessions archived");
      const runs = cronRuns ? store.removeArchives(cronRuns) : [];
      if (runs.length > 0) logger.info({ count: runs.length }, "transcripts of earlier cron runs past cron.sessionRetention removed");
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
