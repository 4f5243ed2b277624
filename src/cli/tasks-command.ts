import type { GatewayClientError } from "../gateway/client.js";
import type { TaskSummary } from "../gateway/task-summary.js";
import { alignColumns } from "../infra/text-table.js";
import { TASK_RUNTIMES, TASK_STATUSES } from "../tasks/index.js";
import type { ClientFlags } from "./client-context.js";
import { CliError, printJson } from "./output.js";
import { printable } from "./printable.js";
import { withGateway } from "./with-gateway.js";

/** `openclaw tasks list` shows at most this many, newest first (the gateway's `tasks.list` maximum). */
const LIST_LIMIT = 500;
const SUMMARY_MAX_CHARS = 80;

/** OpenClaw's `tasks` subcommands this gateway does not have, and why. */
export const UNSUPPORTED_TASK_COMMANDS: Record<string, string> = {
  notify: "this gateway sends no task notifications",
  retry: "this gateway does not track result delivery, so no completion is ever blocked",
  dismiss: "this gateway does not track result delivery, so no completion is ever blocked",
  audit: "this gateway keeps no audit findings; lost tasks show in `openclaw tasks list --status lost`",
  maintenance: "the gateway maintains the ledger itself (lost at start, retention hourly)",
  flow: "this gateway has no Task Flow",
};

export async function tasksListCommand(flags: ClientFlags & { runtime?: string; status?: string; json?: boolean }): Promise<void> {
  const runtime = flags.runtime === undefined ? undefined : oneOf("--runtime", flags.runtime, TASK_RUNTIMES);
  if (flags.status === "blocked") throw new CliError(`--status blocked is not supported here: ${UNSUPPORTED_TASK_COMMANDS.retry}`);
  const status = flags.status === undefined ? undefined : oneOf("--status", flags.status, TASK_STATUSES);
  const { tasks } = await withGateway(flags, (call) =>
    call<{ tasks: TaskSummary[] }>("tasks.list", { limit: LIST_LIMIT, ...(runtime ? { runtime } : {}), ...(status ? { status } : {}) }),
  );
  // The gateway's `failed` also selects `lost` (OpenClaw's RPC status); the CLI's is the stored one.
  const listed = status ? tasks.filter((t) => t.ledgerStatus === status) : tasks;
  if (flags.json) return printJson({ count: listed.length, runtime: runtime ?? null, status: status ?? null, tasks: listed });
  const active = listed.filter((t) => t.ledgerStatus === "queued" || t.ledgerStatus === "running").length;
  process.stdout.write(`Background tasks: ${listed.length} (${active} active)\n`);
  if (listed.length === 0) {
    process.stdout.write("No background tasks found.\n");
    return;
  }
  const rows = listed.map((t) => [t.taskId, t.runtime, t.ledgerStatus, t.runId, t.childSessionKey ?? "n/a", summaryOf(t)].map(printable));
  for (const line of alignColumns([["Task", "Kind", "Status", "Run", "Child Session", "Summary"], ...rows])) process.stdout.write(`${line.trimEnd()}\n`);
}

export async function tasksShowCommand(lookup: string, flags: ClientFlags & { json?: boolean }): Promise<void> {
  const { task } = await withGateway(flags, (call) => call<{ task: TaskSummary }>("tasks.get", { taskId: lookup }).catch((err) => notFound(err, lookup)));
  if (flags.json) return printJson(task);
  const lines = [
    "Background task:",
    `taskId: ${task.taskId}`,
    `kind: ${task.runtime}`,
    `sourceId: ${task.sourceId ?? "n/a"}`,
    `status: ${task.ledgerStatus}`,
    `ownerKey: ${task.sessionKey ?? "n/a"}`,
    `childSessionKey: ${task.childSessionKey ?? "n/a"}`,
    `agentId: ${task.agentId}`,
    `runId: ${task.runId}`,
    `label: ${task.title}`,
    `task: ${task.prompt ?? ""}`,
    `createdAt: ${isoOrNa(task.createdAt)}`,
    `startedAt: ${isoOrNa(task.startedAt)}`,
    `endedAt: ${isoOrNa(task.endedAt)}`,
    `lastEventAt: ${isoOrNa(task.updatedAt)}`,
    ...(task.error ? [`error: ${task.error}`] : []),
    ...(task.terminalSummary ? [`terminalSummary: ${task.terminalSummary}`] : []),
  ];
  for (const line of lines) process.stdout.write(`${printable(line)}\n`);
}

export async function tasksCancelCommand(lookup: string, flags: ClientFlags & { json?: boolean }): Promise<void> {
  const result = await withGateway(flags, (call) => call<{ found: boolean; cancelled: boolean; reason?: string; task?: TaskSummary }>("tasks.cancel", { taskId: lookup }));
  if (flags.json) printJson(result);
  if (!result.found) throw new CliError(lookupMiss(lookup));
  if (!result.cancelled) throw new CliError(printable(result.reason ?? `could not cancel task ${lookup}`));
  if (!flags.json) process.stdout.write(`${printable(`Cancelled ${result.task?.taskId ?? lookup} (${result.task?.runtime ?? "task"}) run ${result.task?.runId ?? "n/a"}.`)}\n`);
}

/** A subcommand of OpenClaw's this gateway does not build: refused, naming why. */
export function tasksUnsupported(name: string): never {
  throw new CliError(`openclaw tasks ${name} is not supported here: ${UNSUPPORTED_TASK_COMMANDS[name]}. Supported: tasks list, tasks show, tasks cancel.`);
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`${flag}: expected one of ${allowed.join(", ")}, got "${value}"`);
}

function summaryOf(task: TaskSummary): string {
  const text = task.error ?? task.terminalSummary ?? task.title;
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > SUMMARY_MAX_CHARS ? `${line.slice(0, SUMMARY_MAX_CHARS - 1)}…` : line;
}

function isoOrNa(ms: number | undefined): string {
  return ms === undefined ? "n/a" : new Date(ms).toISOString();
}

function lookupMiss(lookup: string): string {
  return `no task matches ${printable(lookup)}: give a task id, run id or session key (openclaw tasks list shows them)`;
}

function notFound(err: unknown, lookup: string): never {
  const refusal = (err as GatewayClientError).error;
  if (refusal?.code === "INVALID_REQUEST" && refusal.message.startsWith("task not found:")) throw new CliError(lookupMiss(lookup));
  throw err;
}
