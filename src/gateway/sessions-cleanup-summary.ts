import type { AgentPassReport, PassReport, RemovedArchive } from "../conversations/maintenance-pass.js";
import { indexFile, type KeepReason } from "../sessions/store/index.js";

/** The setting a removed archive was removed for. */
export type ArchiveRule = "cron.sessionRetention" | "session.maintenance.resetArchiveRetention" | "session.maintenance.maxDiskBytes";

/** Archives one step removed (or would remove), counted. */
export interface RemovedFiles {
  removedFiles: number;
  freedBytes: number;
}

/**
 * One agent's cleanup, in OpenClaw's shape where its fields mean the same here (docs/cli.md,
 * `sessions cleanup`): `archived` counts the sessions archived for their age (its `archive-age`),
 * `capArchived` those archived for `maxEntries`, `diskBudget` the folder against `maxDiskBytes`.
 * The rest is this gateway's: the archives removed for each retention, a row per session and per
 * removed archive.
 */
export interface SessionsCleanupSummary {
  agentId: string;
  /** The agent's `sessions.json`. */
  storePath: string;
  /** The mode the pass ran in: `enforce` with `--enforce`, else `session.maintenance.mode`. */
  mode: "enforce" | "warn";
  dryRun: boolean;
  /** Whether the pass changed anything: false for a dry run and in `warn` mode (then the counts are what is due). */
  applied: boolean;
  beforeCount: number;
  /** Sessions left once the archived ones are gone (planned, or done when `applied`). */
  afterCount: number;
  /** Sessions the agent has now, when `applied`. */
  appliedCount?: number;
  archived: number;
  capArchived: number;
  cronRunArchives: RemovedFiles;
  expiredArchives: RemovedFiles;
  diskBudget: {
    totalBytesBefore: number;
    totalBytesAfter: number;
    removedFiles: number;
    freedBytes: number;
    maxBytes: number;
    highWaterBytes: number;
    overBudget: boolean;
  } | null;
  /** Whether the pass archives or removes anything. */
  wouldMutate: boolean;
  activeKey?: string;
  /** Every session, archived ones first: `archive-age`, `archive-cap`, or `keep` with why. */
  sessions: { key: string; action: "archive-age" | "archive-cap" | "keep"; updatedAt: number; reason?: KeepReason }[];
  removedArchives: (RemovedArchive & { rule: ArchiveRule })[];
}

/** Several agents (`--all-agents`), as OpenClaw nests them; one agent's summary stands alone. */
export interface SessionsCleanupAllAgents {
  allAgents: true;
  mode: "enforce" | "warn";
  dryRun: boolean;
  stores: SessionsCleanupSummary[];
}

export type SessionsCleanupResult = SessionsCleanupSummary | SessionsCleanupAllAgents;

export interface CleanupContext {
  stateDir: string;
  dryRun: boolean;
  enforce: boolean;
  activeKey: string | undefined;
}

/** A pass's report as the cleanup's answer: one summary per agent, nested when there are several (as OpenClaw's). */
export function cleanupResult(report: PassReport, context: CleanupContext): SessionsCleanupResult {
  const mode = context.enforce ? "enforce" : report.mode;
  const stores = report.agents.map((agent) => agentSummary(agent, report.applied, mode, context));
  const [only] = stores;
  return only && stores.length === 1 ? only : { allAgents: true, mode, dryRun: context.dryRun, stores };
}

/** The summaries of a result, one per agent. */
export function summariesOf(result: SessionsCleanupResult): SessionsCleanupSummary[] {
  return "stores" in result ? result.stores : [result];
}

function agentSummary(agent: AgentPassReport, applied: boolean, mode: "enforce" | "warn", context: CleanupContext): SessionsCleanupSummary {
  const archived = agent.sessions.filter((s) => s.action === "archive-age").length;
  const capArchived = agent.sessions.filter((s) => s.action === "archive-cap").length;
  const beforeCount = agent.sessions.length;
  const afterCount = beforeCount - archived - capArchived;
  const budget = agent.diskBudget;
  const removedArchives = [
    ...agent.cronRunArchives.map((f) => ({ ...f, rule: "cron.sessionRetention" as const })),
    ...agent.expiredArchives.map((f) => ({ ...f, rule: "session.maintenance.resetArchiveRetention" as const })),
    ...(budget?.removed ?? []).map((f) => ({ ...f, rule: "session.maintenance.maxDiskBytes" as const })),
  ];
  return {
    agentId: agent.agentId,
    storePath: indexFile(context.stateDir, agent.agentId),
    mode,
    dryRun: context.dryRun,
    applied,
    beforeCount,
    afterCount,
    ...(applied ? { appliedCount: afterCount } : {}),
    archived,
    capArchived,
    cronRunArchives: counted(agent.cronRunArchives),
    expiredArchives: counted(agent.expiredArchives),
    diskBudget: budget
      ? {
          totalBytesBefore: budget.usedBytes,
          totalBytesAfter: budget.afterBytes,
          removedFiles: budget.removed.length,
          freedBytes: budget.usedBytes - budget.afterBytes,
          maxBytes: budget.maxBytes,
          highWaterBytes: budget.highWaterBytes,
          overBudget: budget.usedBytes > budget.maxBytes,
        }
      : null,
    wouldMutate: archived + capArchived + removedArchives.length > 0,
    ...(context.activeKey ? { activeKey: context.activeKey } : {}),
    sessions: agent.sessions.map(({ key, action, updatedAt, ...rest }) => ({ key, action, updatedAt, ...("reason" in rest ? { reason: rest.reason } : {}) })),
    removedArchives,
  };
}

function counted(files: readonly RemovedArchive[]): RemovedFiles {
  return { removedFiles: files.length, freedBytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}
