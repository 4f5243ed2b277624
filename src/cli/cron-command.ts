import type { CronJobInput, CronJobPatch } from "../cron/job-input.js";
import { describeSchedule } from "../cron/schedule.js";
import type { CronJob, CronRunEntry } from "../cron/types.js";
import type { GatewayClientError } from "../gateway/client.js";
import type { ClientFlags } from "./client-context.js";
import { formatDuration } from "./gateway-call.js";
import { CliError, printJson } from "./output.js";
import { alignColumns } from "../infra/text-table.js";
import { cronJobStatus, formatCronShow, type ListedCronJob } from "./cron-show.js";
import { withGateway, type GatewayCall } from "./with-gateway.js";

/** The flags of `openclaw cron add` and `cron edit` (commander's camelCase names). */
export interface CronJobFlags {
  name?: string;
  description?: string;
  at?: string;
  every?: string;
  cron?: string;
  tz?: string;
  exact?: boolean;
  message?: string;
  systemEvent?: string;
  session?: string;
  wake?: string;
  agent?: string;
  model?: string;
  thinking?: string;
  fallbacks?: string;
  tools?: string;
  timeoutSeconds?: string;
  lightContext?: boolean;
  announce?: boolean;
  channel?: string;
  to?: string;
  account?: string;
  webhook?: string;
  reportTo?: string;
  noDeliver?: boolean;
  bestEffort?: boolean;
  deleteAfterRun?: boolean;
  keepAfterRun?: boolean;
  disabled?: boolean;
  enable?: boolean;
  disable?: boolean;
}

/** `cron add` flags → a `cron.add` job. The gateway checks the values; this only assembles them. */
export function jobInputFromFlags(flags: CronJobFlags): CronJobInput {
  if (!flags.name) throw new CliError("--name is required");
  const schedule = scheduleFromFlags(flags);
  if (!schedule) throw new CliError("give a schedule: --at <time|20m>, --every <30m> or --cron <expr>");
  const payload = payloadFromFlags(flags);
  if (!payload) throw new CliError("give what to do: --message <text> (an agent turn) or --system-event <text> (into the main session)");
  const input: CronJobInput = {
    name: flags.name,
    schedule,
    sessionTarget: flags.session ?? (payload.kind === "systemEvent" ? "main" : "isolated"),
    payload,
    ...(flags.wake ? { wakeMode: flags.wake } : {}),
    ...(flags.description ? { description: flags.description } : {}),
    ...(flags.agent ? { agentId: flags.agent } : {}),
    ...afterRunFromFlags(flags),
    ...(flags.disabled ? { enabled: false } : {}),
  };
  const delivery = deliveryFromFlags(flags);
  if (delivery) input.delivery = delivery;
  return input;
}

/** `cron edit` flags → a `cron.update` patch of only the fields named. */
export function jobPatchFromFlags(flags: CronJobFlags): CronJobPatch {
  if (flags.enable && flags.disable) throw new CliError("--enable and --disable contradict each other");
  const patch: CronJobPatch = {};
  if (flags.name) patch.name = flags.name;
  if (flags.description !== undefined) patch.description = flags.description;
  const schedule = scheduleFromFlags(flags);
  if (schedule) patch.schedule = schedule;
  const payload = payloadFromFlags(flags);
  if (payload) patch.payload = payload;
  if (flags.session) patch.sessionTarget = flags.session;
  if (flags.wake) patch.wakeMode = flags.wake;
  if (flags.agent) patch.agentId = flags.agent;
  const delivery = deliveryFromFlags(flags);
  if (delivery) patch.delivery = delivery;
  if (flags.enable) patch.enabled = true;
  if (flags.disable) patch.enabled = false;
  Object.assign(patch, afterRunFromFlags(flags));
  if (Object.keys(patch).length === 0) throw new CliError("nothing to change: give at least one flag (see openclaw cron edit --help)");
  return patch;
}

/** `--delete-after-run` / `--keep-after-run`; neither leaves the one-shot default (removed after its successful run). */
function afterRunFromFlags(flags: CronJobFlags): { deleteAfterRun?: boolean } {
  if (flags.deleteAfterRun && flags.keepAfterRun) throw new CliError("--delete-after-run and --keep-after-run contradict each other: give one");
  if (flags.deleteAfterRun) return { deleteAfterRun: true };
  if (flags.keepAfterRun) return { deleteAfterRun: false };
  return {};
}

function scheduleFromFlags(flags: CronJobFlags): CronJobInput["schedule"] | undefined {
  const given = [flags.at, flags.every, flags.cron].filter((v) => v !== undefined).length;
  if (given > 1) throw new CliError("--at, --every and --cron are alternatives: give one");
  if (flags.exact && flags.cron === undefined) throw new CliError("--exact goes with --cron only: it turns off the stagger of on-the-hour expressions");
  if (flags.at !== undefined) return { kind: "at", at: flags.at, ...(flags.tz ? { tz: flags.tz } : {}) };
  if (flags.every !== undefined) {
    if (flags.tz) throw new CliError("--tz applies to --at and --cron, not --every");
    return { kind: "every", every: flags.every };
  }
  if (flags.cron !== undefined) return { kind: "cron", expr: flags.cron, ...(flags.tz ? { tz: flags.tz } : {}), ...(flags.exact ? { exact: true } : {}) };
  if (flags.tz || flags.exact) throw new CliError("--tz and --exact go with --at or --cron");
  return undefined;
}

function payloadFromFlags(flags: CronJobFlags): CronJobInput["payload"] | undefined {
  if (flags.message !== undefined && flags.systemEvent !== undefined) throw new CliError("--message and --system-event are alternatives: give one");
  if (flags.message === undefined) {
    if (flags.model || flags.fallbacks !== undefined || flags.tools !== undefined || flags.thinking || flags.timeoutSeconds !== undefined || flags.lightContext)
      throw new CliError("--model, --fallbacks, --tools, --thinking, --timeout-seconds and --light-context go with --message");
    return flags.systemEvent === undefined ? undefined : { kind: "systemEvent", text: flags.systemEvent };
  }
  const timeoutSeconds = flags.timeoutSeconds === undefined ? undefined : Number(flags.timeoutSeconds);
  if (timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 0)) throw new CliError("--timeout-seconds: expected a whole number of seconds");
  return {
    kind: "agentTurn",
    message: flags.message,
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.fallbacks !== undefined ? { fallbacks: commaList(flags.fallbacks) } : {}),
    ...(flags.tools !== undefined ? { tools: commaList(flags.tools) } : {}),
    ...(flags.thinking ? { thinking: flags.thinking } : {}),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    ...(flags.lightContext ? { lightContext: true } : {}),
  };
}

function commaList(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

function deliveryFromFlags(flags: CronJobFlags): CronJobInput["delivery"] | undefined {
  const modes = [
    flags.announce || flags.channel || flags.to ? "announce" : undefined,
    flags.webhook ? "webhook" : undefined,
    flags.reportTo ? "session" : undefined,
    flags.noDeliver ? "none" : undefined,
  ].filter(Boolean);
  if (modes.length > 1) throw new CliError("--announce/--channel/--to, --webhook, --report-to and --no-deliver are alternatives: give one");
  if ((flags.account || flags.bestEffort) && modes[0] !== "announce") throw new CliError("--account and --best-effort go with a chat delivery: --announce, or --channel and --to");
  if (flags.webhook) return { mode: "webhook", to: flags.webhook };
  if (flags.reportTo) return { mode: "session", to: flags.reportTo };
  if (flags.noDeliver) return { mode: "none" };
  if (modes[0] === "announce") {
    return {
      mode: "announce",
      ...(flags.channel ? { channel: flags.channel } : {}),
      ...(flags.to ? { to: flags.to } : {}),
      ...(flags.account ? { accountId: flags.account } : {}),
      ...(flags.bestEffort ? { bestEffort: true } : {}),
    };
  }
  return undefined;
}

export async function cronListCommand(flags: ClientFlags & { all?: boolean }): Promise<void> {
  await withGateway(flags, async (call) => {
    const res = (await call("cron.list", { enabled: flags.all ? "all" : "enabled", limit: 200 })) as { jobs: CronJob[]; total: number };
    if (flags.json) return printJson(res);
    if (res.jobs.length === 0) return void process.stdout.write(flags.all ? "No cron jobs\n" : "No enabled cron jobs (--all shows disabled ones)\n");
    const now = Date.now();
    const rows = res.jobs.map((j) => [
      j.id,
      j.name,
      describeSchedule(j.schedule),
      j.enabled
        ? j.state.nextRunAtMs
          ? `in ${formatDuration(Math.max(0, j.state.nextRunAtMs - now))}`
          : "-"
        : `disabled${j.state.disabledReason ? ` (${j.state.disabledReason})` : ""}`,
      j.state.lastStatus ?? "-",
      j.sessionTarget,
    ]);
    table(["ID", "NAME", "SCHEDULE", "NEXT", "LAST", "TARGET"], rows);
  });
}

export async function cronAddCommand(flags: ClientFlags & CronJobFlags): Promise<void> {
  const job = jobInputFromFlags(flags);
  await withGateway(flags, async (call) => {
    const added = (await call("cron.add", job)) as CronJob;
    if (flags.json) return printJson({ job: added });
    process.stdout.write(`Added ${added.id} (${added.name}): ${describeSchedule(added.schedule)}${nextLine(added)}\n`);
  });
}

export async function cronEditCommand(id: string, flags: ClientFlags & CronJobFlags): Promise<void> {
  const patch = jobPatchFromFlags(flags);
  await withGateway(flags, async (call) => {
    const updated = (await call("cron.update", { id, patch })) as CronJob;
    if (flags.json) return printJson({ job: updated });
    process.stdout.write(`Updated ${updated.id} (${updated.name}): ${describeSchedule(updated.schedule)}${updated.enabled ? nextLine(updated) : ", disabled"}\n`);
  });
}

export async function cronRemoveCommand(id: string, flags: ClientFlags): Promise<void> {
  await withGateway(flags, async (call) => {
    const res = (await call("cron.remove", { id }).catch((err) => unknownJobRefusal(err, id))) as { removed: boolean };
    if (flags.json) return printJson(res);
    if (!res.removed) throw new CliError(noCronJob(id));
    process.stdout.write(`Removed ${id}\n`);
  });
}

/** `cron enable|disable <id>`: turns the job's schedule on or off (`cron.update`); prints what it did, or with --json the job. */
export async function cronSetEnabledCommand(id: string, enabled: boolean, flags: ClientFlags): Promise<void> {
  await withGateway(flags, async (call) => {
    const job = (await call("cron.update", { id, patch: { enabled } }).catch((err) => unknownJobRefusal(err, id))) as CronJob;
    if (flags.json) return printJson(job);
    process.stdout.write(
      enabled ? `Enabled ${job.id} (${job.name})${nextLine(job)}\n` : `Disabled ${job.id} (${job.name}); cron list shows it with --all, cron enable ${job.id} turns it back on\n`,
    );
  });
}

/** `cron get <id>`: the job as the gateway keeps it, as JSON (with or without --json). */
export async function cronGetCommand(id: string, flags: ClientFlags): Promise<void> {
  await withGateway(flags, async (call) => {
    printJson(await call("cron.get", { id }).catch((err) => unknownJobRefusal(err, id)));
  });
}

/**
 * `cron show <id|name>`: one job, readable. An id wins over a name; a name must match exactly
 * (any case) and only one job. --json prints the job with its `status` and delivery preview.
 */
export async function cronShowCommand(idOrName: string, flags: ClientFlags): Promise<void> {
  await withGateway(flags, async (call) => {
    const { jobs, deliveryPreviews } = await listAllJobs(call);
    const job = findJob(jobs, idOrName);
    const preview = deliveryPreviews[job.id];
    if (flags.json) return printJson({ ...job, status: cronJobStatus(job), ...(preview ? { deliveryPreview: preview } : {}) });
    process.stdout.write(`${formatCronShow(job, preview, Date.now()).join("\n")}\n`);
  });
}

interface JobsPage {
  jobs: ListedCronJob[];
  deliveryPreviews?: Record<string, { label: string; detail: string }>;
  snapshotRevision: string;
  nextOffset: number | null;
}

/** Every job, enabled or not, page by page; read again from the start when the inventory changes between pages. */
async function listAllJobs(call: GatewayCall): Promise<{ jobs: ListedCronJob[]; deliveryPreviews: Record<string, { label: string; detail: string }> }> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const jobs: ListedCronJob[] = [];
    const deliveryPreviews: Record<string, { label: string; detail: string }> = {};
    let revision: string | undefined;
    let offset: number | null = 0;
    while (offset !== null) {
      const page = (await call("cron.list", { enabled: "all", limit: 200, offset })) as JobsPage;
      if (revision !== undefined && page.snapshotRevision !== revision) break;
      revision = page.snapshotRevision;
      jobs.push(...page.jobs);
      Object.assign(deliveryPreviews, page.deliveryPreviews);
      offset = page.nextOffset;
    }
    if (offset === null) return { jobs, deliveryPreviews };
  }
  throw new CliError("the cron jobs kept changing while they were read; run the command again");
}

function findJob(jobs: ListedCronJob[], idOrName: string): ListedCronJob {
  const byId = jobs.find((j) => j.id === idOrName);
  if (byId) return byId;
  const named = jobs.filter((j) => j.name.toLowerCase() === idOrName.toLowerCase());
  if (named.length > 1) throw new CliError(`${named.length} cron jobs are named "${idOrName}" (${named.map((j) => j.id).join(", ")}): give the id`);
  if (named.length === 0) throw new CliError(`no cron job with id or name ${idOrName} (openclaw cron list --all shows them)`);
  return named[0]!;
}

export async function cronRunCommand(id: string, flags: ClientFlags & { due?: boolean }): Promise<void> {
  await withGateway(flags, async (call) => {
    const res = (await call("cron.run", { id, mode: flags.due ? "due" : "force" })) as { ran: boolean; runId?: string; reason?: string };
    if (flags.json) return printJson(res);
    if (!res.ran) return void process.stdout.write(`Not started: ${res.reason}\n`);
    process.stdout.write(`Started run ${res.runId} (openclaw cron runs ${id} shows how it ended)\n`);
  });
}

export async function cronRunsCommand(id: string | undefined, flags: ClientFlags & { limit?: string }): Promise<void> {
  const limit = Number(flags.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new CliError("--limit: expected an integer from 1 to 200");
  await withGateway(flags, async (call) => {
    const res = (await call("cron.runs", { ...(id ? { id } : {}), limit })) as { entries: CronRunEntry[]; total: number };
    // A job with no history must exist: a mistyped id is not "no runs yet". A removed job's history is still shown.
    if (id && res.entries.length === 0) await mustBeKnownJob(call, id);
    if (flags.json) return printJson(res);
    if (res.entries.length === 0) return void process.stdout.write("No runs yet\n");
    const rows = res.entries.map((r) => [
      new Date(r.runAtMs).toISOString(),
      r.jobName,
      r.status,
      `${(r.durationMs / 1000).toFixed(1)}s`,
      r.deliveryStatus,
      (r.error ?? r.summary ?? "").replace(/\s+/g, " ").slice(0, 80),
    ]);
    table(["STARTED", "JOB", "STATUS", "TOOK", "DELIVERY", "DETAIL"], rows);
  });
}

export async function cronStatusCommand(flags: ClientFlags): Promise<void> {
  await withGateway(flags, async (call) => {
    const res = (await call("cron.status", {})) as { enabled: boolean; jobs: number; enabledJobs: number; running: number; nextRunAtMs?: number };
    if (flags.json) return printJson(res);
    process.stdout.write(
      `Cron: ${res.enabled ? "on" : "off"}; ${res.jobs} job(s), ${res.enabledJobs} enabled, ${res.running} running` +
        `${res.nextRunAtMs ? `; next run ${new Date(res.nextRunAtMs).toISOString()}` : ""}\n`,
    );
  });
}

function noCronJob(id: string): string {
  return `no cron job ${id} (openclaw cron list --all shows the ids)`;
}

async function mustBeKnownJob(call: GatewayCall, id: string): Promise<void> {
  await call("cron.get", { id }).catch((err) => unknownJobRefusal(err, id));
}

/** The gateway refuses an unknown id as a bad request naming it; anything else (a refused change, cron off, connection lost) is reported as it is. */
function unknownJobRefusal(err: unknown, id: string): never {
  const refusal = (err as GatewayClientError).error;
  if (refusal?.code === "INVALID_REQUEST" && refusal.message.startsWith("cron job not found:")) throw new CliError(noCronJob(id));
  throw err;
}

function nextLine(job: CronJob): string {
  return job.state.nextRunAtMs ? `, next run ${new Date(job.state.nextRunAtMs).toISOString()}` : "";
}

function table(header: string[], rows: string[][]): void {
  for (const line of alignColumns([header, ...rows])) process.stdout.write(`${line}\n`);
}
