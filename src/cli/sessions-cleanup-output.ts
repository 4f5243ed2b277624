import path from "node:path";
import type { SessionsCleanupResult, SessionsCleanupSummary } from "../gateway/sessions-cleanup-summary.js";
import { summariesOf } from "../gateway/sessions-cleanup-summary.js";
import { formatByteSize } from "../infra/byte-size.js";
import type { KeepReason } from "../sessions/store/index.js";
import { alignColumns } from "../infra/text-table.js";
import { formatDuration } from "./gateway-call.js";

/** Why a kept session was kept, in the words of the setting or flag that kept it; nothing for one within the limits. */
const KEPT_BECAUSE: Record<KeepReason, string> = {
  "active-key": "--active-key",
  running: "a turn is running",
  pinned: "pinned",
  recent: "preserveRecent",
  "within-limits": "",
};

/**
 * `openclaw sessions cleanup` for a person, per agent: what the pass did (or, in a dry run and
 * in `warn` mode, would do) as counts, then the sessions (every one in a preview, the archived
 * ones after a real run) and the archives removed. `ranLocally` names the state dir when no
 * gateway ran the pass.
 */
export function printCleanup(result: SessionsCleanupResult, ranLocally: string | undefined): void {
  const out: string[] = [];
  if (ranLocally) out.push(`No gateway is running for ${ranLocally}: ran the cleanup in this process.`, "");
  const summaries = summariesOf(result);
  summaries.forEach((summary, i) => {
    if (i > 0) out.push("");
    if (summaries.length > 1) out.push(`Agent: ${summary.agentId}`);
    out.push(...summaryLines(summary));
  });
  process.stdout.write(`${out.join("\n")}\n`);
}

function summaryLines(s: SessionsCleanupSummary): string[] {
  const would = !s.applied;
  const verb = (future: string, past: string) => (would ? `Would ${future}` : past);
  const files = (n: { removedFiles: number; freedBytes: number }) => `${n.removedFiles}${n.removedFiles > 0 ? ` (${formatByteSize(n.freedBytes)})` : ""}`;
  const lines = [
    `Session store: ${s.storePath}`,
    `Maintenance mode: ${s.mode}${s.dryRun ? " (dry run)" : ""}`,
    `Entries: ${s.beforeCount} -> ${s.afterCount}`,
    `${verb("archive", "Archived")} for age (pruneAfter): ${s.archived}`,
    `${verb("archive", "Archived")} over the cap (maxEntries): ${s.capArchived}`,
    `${verb("remove", "Removed")} earlier cron run transcripts (cron.sessionRetention): ${files(s.cronRunArchives)}`,
    `${verb("remove", "Removed")} expired reset and deleted archives (resetArchiveRetention): ${files(s.expiredArchives)}`,
    diskBudgetLine(s, verb),
  ];
  if (s.activeKey) lines.push(`Protected (--active-key): ${s.activeKey}${s.sessions.some((row) => row.key === s.activeKey) ? "" : " (no such session)"}`);
  const now = Date.now();
  const age = (updatedAt: number) => formatDuration(now - updatedAt);
  if (would && s.sessions.length > 0) {
    const table = s.sessions.map((row) => [row.action, row.key, age(row.updatedAt), row.reason ? KEPT_BECAUSE[row.reason] : ""]);
    lines.push("", "Planned session actions:", ...alignColumns([["ACTION", "KEY", "AGE", "KEPT BECAUSE"], ...table]));
  }
  const archived = s.sessions.filter((row) => row.action !== "keep");
  if (!would && archived.length > 0) {
    lines.push("", "Archived sessions:", ...alignColumns([["ACTION", "KEY", "AGE"], ...archived.map((row) => [row.action, row.key, age(row.updatedAt)])]));
  }
  if (s.removedArchives.length > 0) {
    lines.push("", `${would ? "Archives to remove from" : "Archives removed from"} ${path.dirname(s.storePath)}:`);
    lines.push(...alignColumns([["FILE", "SIZE", "FOR"], ...s.removedArchives.map((f) => [archiveName(f.file), formatByteSize(f.bytes), f.rule])]));
  }
  lines.push("", closingLine(s));
  return lines;
}

/**
 * An archive by its name in the store's folder. In a preview, the disk budget may name the live
 * transcript of a session the same pass archives first (its archive is named when it is made).
 */
function archiveName(file: string): string {
  const name = path.basename(file);
  return name.endsWith(".jsonl") ? `${name} (once this pass archives it)` : name;
}

function diskBudgetLine(s: SessionsCleanupSummary, verb: (future: string, past: string) => string): string {
  const budget = s.diskBudget;
  if (!budget) return "Disk budget (maxDiskBytes): off";
  const size = `${formatByteSize(budget.totalBytesBefore)} of ${formatByteSize(budget.maxBytes)}`;
  if (!budget.overBudget) return `Disk budget (maxDiskBytes): ${size}, within it`;
  const after = `${formatByteSize(budget.totalBytesAfter)}${budget.totalBytesAfter > budget.highWaterBytes ? `, still over the target of ${formatByteSize(budget.highWaterBytes)}: what is left is live transcripts` : ""}`;
  return `Disk budget (maxDiskBytes): ${size}; ${verb("remove", "removed").toLowerCase()} ${budget.removedFiles} archives (${formatByteSize(budget.freedBytes)}), leaving ${after}`;
}

/** The last word: what happened to the store, and in `warn` mode how to apply what is due. */
function closingLine(s: SessionsCleanupSummary): string {
  if (s.applied) return `Applied maintenance. Current entries: ${s.appliedCount}`;
  if (s.dryRun) return s.wouldMutate ? "Dry run: nothing was changed." : "Dry run: nothing to do.";
  return `session.maintenance.mode is warn: nothing was archived or removed.${s.wouldMutate ? " Pass --enforce to apply the above." : ""}`;
}
