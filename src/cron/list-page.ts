import { createHash } from "node:crypto";
import type { CronJob } from "./types.js";

/**
 * One page of the cron inventory as `cron.list` answers it. OpenClaw's CLI pages through with
 * `offset`/`nextOffset` and restarts when `snapshotRevision` (a digest of every matching job, in
 * order) changes between its pages, so a job added or edited meanwhile is neither lost nor listed twice.
 */
export interface CronListPage {
  jobs: CronJob[];
  snapshotRevision: string;
  total: number;
  offset: number;
  limit: number;
  hasMore: boolean;
  nextOffset: number | null;
}

export const CRON_LIST_MAX_LIMIT = 200;
const CRON_LIST_DEFAULT_LIMIT = 50;

/** `matching` is the filtered, sorted inventory; the page is cut from it. */
export function cronListPage(matching: CronJob[], offset = 0, limit = CRON_LIST_DEFAULT_LIMIT): CronListPage {
  const total = matching.length;
  const start = Math.min(offset, total);
  const size = Math.max(1, Math.min(limit, CRON_LIST_MAX_LIMIT));
  const jobs = matching.slice(start, start + size).map((job) => structuredClone(job));
  const nextOffset = start + jobs.length;
  return {
    jobs,
    snapshotRevision: `sha256:${createHash("sha256").update(JSON.stringify(matching)).digest("base64url")}`,
    total,
    offset: start,
    limit: size,
    hasMore: nextOffset < total,
    nextOffset: nextOffset < total ? nextOffset : null,
  };
}
