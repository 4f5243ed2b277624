import { Type, type Static } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import { CronToolRefusal, type AgentTool } from "../types.js";

const CronParameters = Type.Object({
  action: Type.Union(
    ["status", "list", "get", "add", "update", "remove", "run", "runs"].map((a) => Type.Literal(a)),
    { description: "status | list | get | add | update | remove | run | runs" },
  ),
  jobId: Type.Optional(Type.String({ description: "The job for get, update, remove, run and runs." })),
  job: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'For add: {name, schedule, sessionTarget, payload, delivery?}. schedule: {kind:"at", at:"20m" | ISO, tz?} | {kind:"every", every:"30m"} | {kind:"cron", expr:"0 9 * * 1-5", tz:"Europe/Berlin"}. ' +
          'A reminder for this chat: sessionTarget "main" with payload {kind:"systemEvent", text}. Work on its own: sessionTarget "isolated" with payload {kind:"agentTurn", message}. ' +
          'A turn in this very session: sessionTarget "current" with an agentTurn payload. ' +
          'delivery {mode:"announce", channel, to} or {mode:"none"}. A one-shot (at) job is removed after its successful run; deleteAfterRun:false keeps it.',
      },
    ),
  ),
  patch: Type.Optional(Type.Object({}, { additionalProperties: true, description: "For update: the fields to change (same shape as job)." })),
});
export type CronArgs = Static<typeof CronParameters>;

/** The agent schedules its own reminders and recurring work through the gateway's scheduler (docs/automation.md). */
export function createCronTool(): AgentTool<typeof CronParameters> {
  return {
    name: "cron",
    ownerOnly: true,
    description:
      "Schedule reminders and recurring jobs on the gateway, and inspect or change them: action add (with job), list, get, update (jobId + patch), remove, run (now), runs (history), status. " +
      "Times without an offset are UTC unless the schedule names tz.",
    parameters: CronParameters,
    async execute(args, ctx) {
      const host = ctx.services.cron;
      if (!host) return toolError(TOOL_ERRORS.cronUnavailable("scheduling only works inside the gateway"));
      const { action, ...rest } = args;
      try {
        const answer = await host.call(action as never, rest as Record<string, unknown>, ctx.agentId, ctx.sessionKey);
        return toolText(JSON.stringify(answer, null, 2));
      } catch (error) {
        if (error instanceof CronToolRefusal) return toolError(error.unavailable ? TOOL_ERRORS.cronUnavailable(error.message) : TOOL_ERRORS.cronRefused(error.message));
        throw error;
      }
    },
  };
}
