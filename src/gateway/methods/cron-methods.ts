import { Type } from "@sinclair/typebox";
import { defaultAgentId } from "../../agents/agent-config.js";
import { CronNotFoundError, CronUnavailableError, JobInputError, type CronService } from "../../cron/cron-service.js";
import type { CronJobInput, CronJobPatch } from "../../cron/job-input.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const JobId = Type.String({ minLength: 1, maxLength: 200 });
const Schedule = Type.Object(
  {
    kind: Type.Union([Type.Literal("at"), Type.Literal("every"), Type.Literal("cron")]),
    at: Type.Optional(Type.String()),
    tz: Type.Optional(Type.String()),
    every: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    everyMs: Type.Optional(Type.Number()),
    anchorMs: Type.Optional(Type.Number()),
    expr: Type.Optional(Type.String()),
    staggerMs: Type.Optional(Type.Number()),
    exact: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Payload = Type.Object(
  {
    kind: Type.Union([Type.Literal("systemEvent"), Type.Literal("agentTurn")]),
    text: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    thinking: Type.Optional(Type.String()),
    timeoutSeconds: Type.Optional(Type.Number()),
    lightContext: Type.Optional(Type.Boolean()),
    fallbacks: Type.Optional(Type.Array(Type.String())),
    tools: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
const Delivery = Type.Object(
  {
    mode: Type.Union([Type.Literal("none"), Type.Literal("announce"), Type.Literal("webhook"), Type.Literal("session")]),
    channel: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    accountId: Type.Optional(Type.String()),
    threadId: Type.Optional(Type.String()),
    bestEffort: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const jobFields = {
  name: Type.String(),
  description: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  agentId: Type.Optional(Type.String()),
  deleteAfterRun: Type.Optional(Type.Boolean()),
  schedule: Schedule,
  sessionTarget: Type.String(),
  wakeMode: Type.Optional(Type.Union([Type.Literal("now"), Type.Literal("next-heartbeat")])),
  payload: Payload,
  delivery: Type.Optional(Delivery),
};
const RunStatus = Type.Union([Type.Literal("ok"), Type.Literal("error"), Type.Literal("skipped"), Type.Literal("interrupted")]);
/** How OpenClaw words an unknown id; its CLI recognises the words (`cron show <name>` then looks the name up). */
const notFound = (id: string) => invalidRequest(`cron job not found: ${id} (cron.list shows the ids)`);

/**
 * `cron.*` (docs/automation.md): reading jobs and runs needs operator.read, changing them operator.admin.
 * `cron.get`, `cron.add` and `cron.update` answer the job itself, as OpenClaw does.
 */
export function registerCronMethods(registry: MethodRegistry, cron: CronService): void {
  const failed = (error: unknown): never => {
    if (error instanceof CronNotFoundError) throw notFound(error.jobId);
    if (error instanceof JobInputError) throw invalidRequest(error.message);
    if (error instanceof CronUnavailableError) throw unavailable(error.message);
    throw error;
  };
  const idOf = (params: { id?: string; jobId?: string }): string => {
    const id = params.id ?? params.jobId;
    if (!id) throw invalidRequest("name the job: id (or jobId)");
    return id;
  };

  registry.register({
    name: "cron.status",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => cron.status(),
  });

  registry.register({
    name: "cron.list",
    scope: "operator.read",
    params: Type.Object(
      {
        includeDisabled: Type.Optional(Type.Boolean()),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
        query: Type.Optional(Type.String({ maxLength: 200 })),
        enabled: Type.Optional(Type.Union([Type.Literal("all"), Type.Literal("enabled"), Type.Literal("disabled")])),
        sortBy: Type.Optional(Type.Union([Type.Literal("nextRunAtMs"), Type.Literal("updatedAtMs"), Type.Literal("name")])),
        sortDir: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
        /** `false` leaves `deliveryPreviews` out. */
        includeDeliveryPreviews: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const { includeDeliveryPreviews, ...query } = params;
      const page = cron.list(query);
      // A job that names no agent runs as the default one; OpenClaw's CLI shows this as the job's agent.
      const fallbackAgentId = defaultAgentId(runtime.config());
      const jobs = page.jobs.map((job) => ({ ...job, effectiveAgentId: job.agentId ?? fallbackAgentId }));
      if (includeDeliveryPreviews === false) return { ...page, jobs };
      // Where each job's result would go now: `openclaw cron list` shows it in its Delivery column.
      return { ...page, jobs, deliveryPreviews: Object.fromEntries(page.jobs.map((job) => [job.id, cron.deliveryPreview(job)])) };
    },
  });

  registry.register({
    name: "cron.get",
    scope: "operator.read",
    params: Type.Object({ id: Type.Optional(JobId), jobId: Type.Optional(JobId) }, { additionalProperties: false }),
    handler: (params) => {
      const job = cron.get(idOf(params));
      if (!job) throw notFound(idOf(params));
      return job;
    },
  });

  registry.register({
    name: "cron.add",
    scope: "operator.admin",
    params: Type.Object(jobFields, { additionalProperties: false }),
    handler: (params) => cron.add(params as CronJobInput).catch(failed),
  });

  registry.register({
    name: "cron.update",
    scope: "operator.admin",
    params: Type.Object(
      { id: Type.Optional(JobId), jobId: Type.Optional(JobId), patch: Type.Partial(Type.Object(jobFields, { additionalProperties: false })) },
      { additionalProperties: false },
    ),
    handler: (params) => cron.update(idOf(params), params.patch as CronJobPatch).catch(failed),
  });

  registry.register({
    name: "cron.remove",
    scope: "operator.admin",
    params: Type.Object({ id: Type.Optional(JobId), jobId: Type.Optional(JobId) }, { additionalProperties: false }),
    handler: async (params) => {
      const { removed } = await cron.remove(idOf(params)).catch(failed);
      if (!removed) throw notFound(idOf(params));
      return { ok: true, removed };
    },
  });

  registry.register({
    name: "cron.run",
    scope: "operator.admin",
    params: Type.Object(
      { id: Type.Optional(JobId), jobId: Type.Optional(JobId), mode: Type.Optional(Type.Union([Type.Literal("due"), Type.Literal("force")])) },
      { additionalProperties: false },
    ),
    handler: (params) => {
      try {
        const run = cron.run(idOf(params), params.mode ?? "force");
        // `enqueued` is what OpenClaw's `cron run --wait` waits on.
        return run.ran ? { ok: true, enqueued: true, ...run } : { ok: true, ...run };
      } catch (error) {
        return failed(error);
      }
    },
  });

  registry.register({
    name: "cron.runs",
    scope: "operator.read",
    params: Type.Object(
      {
        scope: Type.Optional(Type.Union([Type.Literal("job"), Type.Literal("all")])),
        id: Type.Optional(JobId),
        jobId: Type.Optional(JobId),
        runId: Type.Optional(Type.String({ maxLength: 200 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
        status: Type.Optional(Type.Union([RunStatus, Type.Literal("all")])),
        statuses: Type.Optional(Type.Array(RunStatus, { maxItems: 4 })),
        deliveryStatus: Type.Optional(Type.Union([Type.Literal("delivered"), Type.Literal("not-delivered"), Type.Literal("unknown"), Type.Literal("not-requested")])),
        query: Type.Optional(Type.String({ maxLength: 200 })),
        sortDir: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
      },
      { additionalProperties: false },
    ),
    handler: (params) => {
      const jobId = params.id ?? params.jobId;
      if (params.scope === "job" && !jobId) throw invalidRequest('scope "job" needs id (or jobId)');
      const statuses = params.statuses ?? (params.status && params.status !== "all" ? [params.status] : undefined);
      return cron.runs({
        jobId,
        runId: params.runId,
        limit: params.limit,
        offset: params.offset,
        statuses,
        deliveryStatus: params.deliveryStatus,
        query: params.query,
        sortDir: params.sortDir,
      });
    },
  });
}
