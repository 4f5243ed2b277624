import { runReplyText, type ConversationRun, type SubmitOutcome } from "../agents/conversation-port.js";
import { buildCronRunSessionKey } from "../sessions/keys/index.js";
import { stripHeartbeatToken } from "./heartbeat-token.js";
import type { ChatRoute, CronChannelPort, CronConversations } from "./ports.js";
import type { CronJob, CronRunOutcome } from "./types.js";

export interface RunJobDeps {
  conversations: CronConversations;
  channels: () => CronChannelPort | undefined;
  /**
   * A system event for the main session with `wakeMode: next-heartbeat`: queued for the agent's
   * next heartbeat when it has one, on disk before this returns true. `key` names the run: a run
   * started again under its runId queues nothing twice.
   */
  queueForHeartbeat?: (agentId: string, sessionKey: string, text: string, key: string) => boolean;
}

/**
 * One run of a job through the conversation core: a system event into the main session, or an
 * agent turn in the job's isolated session or a named one. Resolves when the turn ended.
 */
export async function runJob(job: CronJob, runId: string, deps: RunJobDeps): Promise<CronRunOutcome> {
  const preflight = checkDeliveryRoute(job, deps);
  if (preflight) return preflight;
  const { conversations } = deps;
  const provenance = { kind: "internal_system" as const, sourceTool: "cron" };
  if (job.payload.kind === "systemEvent") {
    const { sessionKey, agentId } = conversations.resolveSessionKey(undefined, job.agentId);
    const text = `[Scheduled: ${job.name}] ${job.payload.text}`;
    if (job.wakeMode === "next-heartbeat" && deps.queueForHeartbeat?.(agentId, sessionKey, text, `cron:${runId}`)) {
      return { status: "ok", text: "", sessionKey };
    }
    const outcome = await conversations.submit({ message: text, sessionKey, agentId, idempotencyKey: `cron:${runId}`, method: "agent", internal: { mergeable: true }, provenance });
    const run = acceptedRun(outcome);
    if ("error" in run) return { status: "error", error: run.error, text: "", sessionKey };
    // The main session answers where its conversation lives, like any runtime-started turn.
    deps.channels()?.deliverSessionRun(sessionKey, run);
    return finished(await run.done, sessionKey, false);
  }
  const isolated = job.sessionTarget === "isolated";
  const requested = isolated ? buildCronRunSessionKey(job.id) : job.sessionTarget.slice("session:".length);
  let resolved: { sessionKey: string; agentId: string };
  try {
    resolved = conversations.resolveSessionKey(requested, job.agentId);
  } catch (err) {
    return { status: "error", error: `session ${requested}: ${(err as Error).message}`, text: "", permanent: true };
  }
  const { sessionKey, agentId } = resolved;
  if (isolated) conversations.reset({ sessionKey, method: "agent" });
  const outcome = await conversations.submit({
    message: job.payload.message,
    sessionKey,
    agentId,
    idempotencyKey: `cron:${runId}`,
    method: "agent",
    // A scheduled run speaks for nobody: owner-only tools stay closed to it.
    senderIsOwner: false,
    ...(isolated ? {} : { internal: { mergeable: false } }),
    provenance,
  });
  const run = acceptedRun(outcome);
  if ("error" in run) return { status: "error", error: run.error, text: "", sessionKey };
  return finished(await run.done, sessionKey, true);
}

function acceptedRun(outcome: SubmitOutcome): ConversationRun | { error: string } {
  if (outcome.kind === "accepted") return outcome.run;
  if (outcome.kind === "duplicate" && outcome.run) return outcome.run;
  if (outcome.kind === "rejected") return { error: outcome.notice };
  return { error: `the run was already accepted before a restart (${outcome.status})` };
}

function finished(run: ConversationRun, sessionKey: string, unattended: boolean): CronRunOutcome {
  const raw = runReplyText(run);
  // An unattended run's final reply is its deliverable; HEARTBEAT_OK means there was nothing to report.
  const text = unattended ? stripHeartbeatToken(raw).text : raw;
  const base = { text, sessionKey, ...(run.result?.model ? { model: run.result.model } : {}) };
  if (run.status === "ok") return { status: "ok", ...base };
  return { status: "error", error: run.result?.error?.message ?? `the turn ended as ${run.status}`, ...base, ...(run.status === "timeout" ? { timedOut: true as const } : {}) };
}

/** An announce job whose chat cannot be reached fails before any model time is spent on it. */
function checkDeliveryRoute(job: CronJob, deps: RunJobDeps): CronRunOutcome | undefined {
  if (job.delivery.mode !== "announce") return undefined;
  const route = resolveAnnounceRoute(job, deps);
  if ("error" in route) return job.delivery.bestEffort ? undefined : { status: "error", error: route.error, text: "", permanent: route.permanent };
  return undefined;
}

/** Where an announce job's reply goes: its own channel and chat, or the main session's last chat. */
export function resolveAnnounceRoute(job: CronJob, deps: Pick<RunJobDeps, "channels" | "conversations">): ChatRoute | { error: string; permanent: boolean } {
  if (job.delivery.mode !== "announce") return { error: "the job does not announce", permanent: true };
  const channels = deps.channels();
  if (!channels) return { error: "no chat channel is configured on this gateway: configure one under channels, or set the job's delivery to none or webhook", permanent: true };
  let route: ChatRoute | undefined;
  if (job.delivery.channel === undefined || job.delivery.channel === "last") {
    const main = deps.conversations.resolveSessionKey(undefined, job.agentId).sessionKey;
    route = channels.lastRoute(main);
    if (!route) return { error: `delivery channel "last": the main session (${main}) has no chat yet; name a channel and a chat (--channel, --to)`, permanent: false };
    if (job.delivery.to) route = { ...route, to: job.delivery.to };
  } else {
    route = { channel: job.delivery.channel, to: job.delivery.to! };
  }
  if (job.delivery.accountId) route.accountId = job.delivery.accountId;
  if (job.delivery.threadId) route.threadId = job.delivery.threadId;
  const check = channels.check(route);
  return check.ok ? route : { error: check.reason, permanent: check.permanent };
}
