import type { Logger } from "../infra/logger.js";
import { formatByteSize } from "../infra/byte-size.js";
import type { SessionStore } from "../sessions/store/index.js";
import { runMaintenancePass, type AgentPassReport, type MaintenanceSettings, type PassReport } from "./maintenance-pass.js";

/** A transcript past this size is rotated after a run (its recent history carried over). */
export const MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;
const PRUNE_EVERY_MS = 3600_000;

/**
 * Keeps the session store bounded: a maintenance pass (maintenance-pass.ts) runs at start-up and
 * hourly, and big transcripts are rotated after their run. The settings are read at each pass, so
 * a config reload applies at the next one. What a pass did, or in `warn` mode what is due, is
 * logged; each session it archived is passed to `onArchived` (clients are told it is gone).
 */
export function startSessionMaintenance(
  store: SessionStore,
  logger: Logger,
  settings: () => MaintenanceSettings | undefined = () => undefined,
  onArchived: (sessionKey: string) => void = () => {},
): { rotateIfLarge(sessionKey: string): boolean; stop(): void } {
  const prune = () => {
    try {
      const report = runMaintenancePass(store, settings() ?? {});
      logPass(logger, report);
      if (report.applied) for (const key of archivedKeys(report)) onArchived(key);
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

/** The sessions a pass archived (or, not applied, would have). */
function archivedKeys(report: PassReport): string[] {
  return report.agents.flatMap((a) => a.sessions.filter((s) => s.action !== "keep").map((s) => s.key));
}

/** The log lines of a pass: counts of what it did, or (`warn` mode) of what it kept that is due. */
function logPass(logger: Logger, report: PassReport): void {
  const archived = archivedKeys(report);
  const cronRuns = report.agents.reduce((n, a) => n + a.cronRunArchives.length, 0);
  const expired = report.agents.reduce((n, a) => n + a.expiredArchives.length, 0);
  if (!report.applied) {
    if (archived.length > 0) logger.warn({ count: archived.length, sessions: archived.slice(0, 20) }, "sessions due for archiving kept (session.maintenance.mode is warn)");
    if (cronRuns > 0) logger.warn({ count: cronRuns }, "transcripts of earlier cron runs past cron.sessionRetention kept (session.maintenance.mode is warn)");
    if (expired > 0)
      logger.warn({ count: expired }, "reset and deleted transcript archives past session.maintenance.resetArchiveRetention kept (session.maintenance.mode is warn)");
  } else {
    if (archived.length > 0) logger.info({ count: archived.length }, "expired sessions archived");
    if (cronRuns > 0) logger.info({ count: cronRuns }, "transcripts of earlier cron runs past cron.sessionRetention removed");
    if (expired > 0) logger.info({ count: expired }, "reset and deleted transcript archives past session.maintenance.resetArchiveRetention removed");
  }
  for (const agent of report.agents) reportBudget(logger, agent, report.applied);
}

/** A folder that was over `maxDiskBytes`: what was removed (or is due), and whether it is still over its target. */
function reportBudget(logger: Logger, { agentId, diskBudget: budget }: AgentPassReport, applied: boolean): void {
  if (!budget || budget.usedBytes <= budget.maxBytes) return;
  const facts = {
    agentId,
    usedBytes: budget.usedBytes,
    maxDiskBytes: budget.maxBytes,
    archives: budget.removed.length,
    freedBytes: budget.usedBytes - budget.afterBytes,
    afterBytes: budget.afterBytes,
  };
  const sizes = `${formatByteSize(budget.usedBytes)} of ${formatByteSize(budget.maxBytes)}`;
  if (!applied) {
    logger.warn(facts, `agent ${agentId}'s sessions take ${sizes}: ${budget.removed.length} archives due for removal kept (session.maintenance.mode is warn)`);
    return;
  }
  if (budget.removed.length > 0)
    logger.info(facts, `agent ${agentId}'s sessions took ${sizes}: removed the ${budget.removed.length} oldest archives (session.maintenance.maxDiskBytes)`);
  if (budget.afterBytes > budget.highWaterBytes) {
    logger.warn(
      facts,
      `agent ${agentId}'s sessions still take ${formatByteSize(budget.afterBytes)}, over session.maintenance.maxDiskBytes' target of ${formatByteSize(budget.highWaterBytes)}: what is left is live transcripts (prune sessions, lower pruneAfter or maxEntries, or raise maxDiskBytes)`,
    );
  }
}
