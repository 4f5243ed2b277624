import { defaultAgentId, normalizeAgentId } from "../agents/agent-config.js";
import { checkModelChoice } from "../agents/session-controls.js";
import type { OpenClawConfig } from "../config/index.js";
import { JobInputError } from "./job-input.js";
import type { CronChannelPort } from "./ports.js";
import type { CronJob } from "./types.js";
import { literalPrivateRefusal, webhookAccess, webhookPolicy } from "./webhook-policy.js";

export interface JobTargetDeps {
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  channels: CronChannelPort | undefined;
}

/**
 * What a job names outside itself must exist when the job is saved: its model and fallbacks
 * resolve to a configured (or built-in) provider and are allowed by the model policy of the job's
 * agent (its `agentId`, else the agent of its `session:` target, else the default agent), an
 * announce goes to a channel and account this gateway has, and a webhook written as a private,
 * loopback or link-local address (or a blocked host) is allowed by `cron.webhookSsrfPolicy`. Refused with the field and the choices; the run-time checks stay, for
 * config that changes after the job was saved.
 */
export function assertJobTargets(job: CronJob, deps: JobTargetDeps, which: { payload: boolean; delivery: boolean }): void {
  if (which.payload && job.payload.kind === "agentTurn") {
    const refs: [string, string][] = [];
    if (job.payload.model) refs.push(["payload.model", job.payload.model]);
    job.payload.fallbacks?.forEach((ref, i) => refs.push([`payload.fallbacks[${i}]`, ref]));
    const agentId = jobAgentId(job, deps.config);
    for (const [field, ref] of refs) {
      const checked = checkModelChoice(ref, agentId, deps.config, deps.env);
      if (!checked.ok) throw new JobInputError(`${field}: ${checked.message}`);
    }
  }
  if (which.delivery && job.delivery.mode === "webhook") {
    const host = new URL(job.delivery.to).hostname;
    const access = webhookAccess(webhookPolicy(deps.config), host);
    const refusal = access.kind === "blocked" ? access.reason : literalPrivateRefusal(access, host);
    if (refusal) throw new JobInputError(`delivery.to: ${refusal}`);
  }
  if (which.delivery && job.delivery.mode === "announce" && job.delivery.channel && job.delivery.channel !== "last") {
    const { channel, to, accountId, threadId } = job.delivery;
    if (!deps.channels) {
      throw new JobInputError(
        `delivery.channel: no chat channel is configured on this gateway, so "${channel}" cannot be announced to; configure one under channels (telegram, discord, slack), or deliver with mode "none", "webhook" or "session"`,
      );
    }
    const check = deps.channels.check({ channel, to: to ?? "", ...(accountId ? { accountId } : {}), ...(threadId ? { threadId } : {}) });
    if (!check.ok) throw new JobInputError(`delivery.${check.field ?? "channel"}: ${check.reason}`);
  }
}

function jobAgentId(job: CronJob, config: OpenClawConfig): string {
  if (job.agentId) return normalizeAgentId(job.agentId);
  const target = job.sessionTarget.startsWith("session:") ? job.sessionTarget.slice("session:".length) : "";
  const fromKey = /^agent:([^:]+):/i.exec(target)?.[1];
  return fromKey ? normalizeAgentId(fromKey) : defaultAgentId(config);
}
