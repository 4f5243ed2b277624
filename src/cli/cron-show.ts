import { describeSchedule } from "../cron/schedule.js";
import type { CronJob } from "../cron/types.js";
import { formatDuration } from "./gateway-call.js";

/** A job as `cron.list` answers it: with the agent it runs as when it names none. */
export type ListedCronJob = CronJob & { effectiveAgentId?: string };

/** `openclaw cron show`: one `key: value` line per fact, `-` where there is none (OpenClaw's layout). */
export function formatCronShow(job: ListedCronJob, preview: { label: string; detail: string } | undefined, nowMs: number): string[] {
  const value = (v: string | number | undefined): string => (v === undefined || v === "" ? "-" : String(v).replace(/\s+/g, " "));
  const state = job.state;
  const payload = job.payload.kind === "agentTurn" ? `agent turn: ${job.payload.message}` : `system event: ${job.payload.text}`;
  return [
    `id: ${job.id}`,
    `name: ${value(job.name)}`,
    `description: ${value(job.description)}`,
    `enabled: ${job.enabled ? "yes" : `no${state.disabledReason ? ` (${state.disabledReason})` : ""}`}`,
    `schedule: ${describeSchedule(job.schedule)}`,
    `session: ${job.sessionTarget}`,
    `agent: ${job.agentId ?? (job.effectiveAgentId ? `${job.effectiveAgentId} (default)` : "-")}`,
    `model: ${value(job.payload.kind === "agentTurn" ? job.payload.model : undefined)}`,
    `payload: ${value(payload)}`,
    `delivery: ${preview ? `${preview.label} (${preview.detail})` : "-"}`,
    `next: ${relative(job.enabled ? state.nextRunAtMs : undefined, nowMs)}`,
    `last: ${relative(state.lastRunAtMs, nowMs)}`,
    `status: ${statusLabel(job)}`,
    `last error: ${value(state.lastError)}`,
    `last delivery: ${value(state.lastDeliveryStatus)}`,
    `last delivery error: ${value(state.lastDeliveryError)}`,
  ];
}

function relative(atMs: number | undefined, nowMs: number): string {
  if (!atMs) return "-";
  const span = formatDuration(Math.abs(atMs - nowMs));
  return atMs >= nowMs ? `in ${span}` : `${span} ago`;
}

/** One word for the job's state, as OpenClaw's `status`: running, disabled, the last run's outcome, or idle. */
export function cronJobStatus(job: CronJob): string {
  if (job.state.runningAtMs) return "running";
  if (!job.enabled) return "disabled";
  return job.state.lastStatus ?? "idle";
}

/** The status word, with repeated errors counted and a result that was not delivered said so. */
function statusLabel(job: CronJob): string {
  const status = cronJobStatus(job);
  const failures = job.state.consecutiveErrors ?? 0;
  if (status === "error" && failures > 1) return `error (${failures}x)`;
  if (status === "ok" && job.state.lastDeliveryStatus === "not-delivered") return "ok (not delivered)";
  return status;
}
