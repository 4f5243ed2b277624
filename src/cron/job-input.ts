import { randomUUID } from "node:crypto";
import { isKnownToolGroup, isToolGroup } from "../agents/policy/tool-groups.js";
import { normalizeSchedule, ScheduleError, type ScheduleInput } from "./schedule.js";
import type { CronDelivery, CronJob, CronPayload, CronSessionTarget, CronWakeMode } from "./types.js";

/** A job as callers describe it (`cron.add`, `openclaw cron add`, the `cron` tool). */
export interface CronJobInput {
  name: string;
  description?: string;
  enabled?: boolean;
  agentId?: string;
  deleteAfterRun?: boolean;
  schedule: ScheduleInput;
  sessionTarget: string;
  wakeMode?: string;
  /** Either payload's fields, checked against `kind` by `createJob`. */
  payload: { kind: string; text?: string } & Partial<Omit<Extract<CronPayload, { kind: "agentTurn" }>, "kind">>;
  delivery?: { mode: string; channel?: string; to?: string; accountId?: string; threadId?: string; bestEffort?: boolean };
}

/** The fields `cron.update` may change; `schedule`, `payload` and `delivery` are replaced whole. */
export type CronJobPatch = Partial<Omit<CronJobInput, "sessionTarget">> & { sessionTarget?: string };

export class JobInputError extends Error {}

const THINKING = new Set(["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max"]);
const AGENT_TURN_FIELDS = new Set(["kind", "message", "model", "fallbacks", "thinking", "timeoutSeconds", "lightContext", "tools"]);
const MAX_NAME_CHARS = 200;
const MAX_TEXT_CHARS = 20_000;

export function createJob(input: CronJobInput, now: number, id: string = randomUUID()): CronJob {
  const job: CronJob = {
    id,
    name: checkName(input.name),
    enabled: input.enabled ?? true,
    createdAtMs: now,
    updatedAtMs: now,
    schedule: schedule(input.schedule, now, id),
    sessionTarget: sessionTarget(input.sessionTarget),
    wakeMode: wakeMode(input.wakeMode),
    payload: payload(input.payload),
    delivery: delivery(input.delivery),
    state: {},
  };
  if (input.description !== undefined) job.description = text(input.description, "description", 2_000, true);
  if (input.agentId !== undefined) job.agentId = agentId(input.agentId);
  // A one-shot job is removed after its successful run unless the caller says to keep it (OpenClaw's default).
  if (input.deleteAfterRun !== undefined) job.deleteAfterRun = input.deleteAfterRun;
  else if (job.schedule.kind === "at") job.deleteAfterRun = true;
  checkCombination(job);
  checkDeleteAfterRun(job);
  return job;
}

/** The job with `patch` applied, checked as a whole; the input job is not changed. */
export function patchJob(job: CronJob, patch: CronJobPatch, now: number): CronJob {
  const next: CronJob = structuredClone(job);
  if (patch.name !== undefined) next.name = checkName(patch.name);
  if (patch.description !== undefined) next.description = text(patch.description, "description", 2_000, true);
  if (patch.enabled !== undefined) {
    next.enabled = patch.enabled;
    if (patch.enabled) {
      delete next.state.disabledReason;
      next.state.consecutiveErrors = 0;
    }
  }
  if (patch.agentId !== undefined) next.agentId = agentId(patch.agentId);
  if (patch.schedule !== undefined) {
    next.schedule = schedule(patch.schedule, now, job.id);
    delete next.state.nextRunAtMs;
  }
  // A job turned one-shot takes the one-shot default; a one-shot turned recurring loses it.
  if (patch.deleteAfterRun !== undefined) next.deleteAfterRun = patch.deleteAfterRun;
  else if (next.schedule.kind === "at" && job.schedule.kind !== "at") next.deleteAfterRun = true;
  else if (next.schedule.kind !== "at" && job.schedule.kind === "at") delete next.deleteAfterRun;
  if (patch.sessionTarget !== undefined) next.sessionTarget = sessionTarget(patch.sessionTarget);
  if (patch.wakeMode !== undefined) next.wakeMode = wakeMode(patch.wakeMode);
  if (patch.payload !== undefined) next.payload = payload(patch.payload);
  if (patch.delivery !== undefined) next.delivery = delivery(patch.delivery);
  next.updatedAtMs = now;
  checkCombination(next);
  if (patch.deleteAfterRun !== undefined || patch.schedule !== undefined) checkDeleteAfterRun(next);
  return next;
}

function schedule(input: ScheduleInput, now: number, id: string): CronJob["schedule"] {
  if (typeof input !== "object" || input === null) throw new JobInputError("schedule: expected an object with kind at, every or cron");
  try {
    return normalizeSchedule(input, now, id);
  } catch (err) {
    if (err instanceof ScheduleError) throw new JobInputError(err.message);
    throw err;
  }
}

function checkName(name: unknown): string {
  return text(name, "name", MAX_NAME_CHARS);
}

function text(value: unknown, what: string, max: number, allowEmpty = false): string {
  if (typeof value !== "string") throw new JobInputError(`${what}: expected text`);
  const trimmed = value.trim();
  if (!allowEmpty && trimmed === "") throw new JobInputError(`${what} must not be empty`);
  if (trimmed.length > max) throw new JobInputError(`${what} is ${trimmed.length} characters; the limit is ${max}`);
  return trimmed;
}

function agentId(value: unknown): string {
  if (typeof value !== "string" || !/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(value)) throw new JobInputError("agentId: expected an agent id (1-64 of a-z, 0-9, _ or -)");
  return value.toLowerCase();
}

function sessionTarget(value: unknown): CronSessionTarget {
  if (value === "main" || value === "isolated") return value;
  if (typeof value === "string" && value.startsWith("session:") && value.length > "session:".length && !/\s/.test(value)) return value as CronSessionTarget;
  if (value === "current") throw new JobInputError('sessionTarget "current" is the session the agent\'s cron tool is called from; here, name the session with "session:<key>"');
  throw new JobInputError(`sessionTarget: expected "main", "isolated" or "session:<key>", got ${JSON.stringify(value)}`);
}

function wakeMode(value: unknown): CronWakeMode {
  if (value === undefined || value === "now") return "now";
  if (value === "next-heartbeat") return value;
  throw new JobInputError(`wakeMode: expected "now" or "next-heartbeat", got ${JSON.stringify(value)}`);
}

function payload(input: CronJobInput["payload"]): CronPayload {
  if (typeof input !== "object" || input === null) throw new JobInputError("payload: expected an object with kind systemEvent or agentTurn");
  if (input.kind === "systemEvent") return { kind: "systemEvent", text: text(input.text, "payload.text", MAX_TEXT_CHARS) };
  if (input.kind !== "agentTurn") throw new JobInputError(`payload.kind: expected "systemEvent" or "agentTurn", got ${JSON.stringify(input.kind)}`);
  const unknown = Object.keys(input).filter((key) => !AGENT_TURN_FIELDS.has(key));
  if (unknown.length > 0) throw new JobInputError(`payload.${unknown[0]}: not a field of an agentTurn payload (${[...AGENT_TURN_FIELDS].join(", ")})`);
  const out: CronPayload = { kind: "agentTurn", message: text(input.message, "payload.message", MAX_TEXT_CHARS) };
  if (input.model !== undefined) out.model = modelRef(input.model, "payload.model");
  if (input.fallbacks !== undefined) out.fallbacks = list(input.fallbacks, "payload.fallbacks", (ref, i) => modelRef(ref, `payload.fallbacks[${i}]`));
  if (input.tools !== undefined) out.tools = list(input.tools, "payload.tools", toolEntry);
  if (input.thinking !== undefined) {
    if (!THINKING.has(input.thinking)) throw new JobInputError(`payload.thinking: expected one of ${[...THINKING].join(", ")}`);
    out.thinking = input.thinking;
  }
  if (input.timeoutSeconds !== undefined) {
    if (!Number.isInteger(input.timeoutSeconds) || input.timeoutSeconds < 0) throw new JobInputError("payload.timeoutSeconds: expected a whole number of seconds (0 = no limit)");
    out.timeoutSeconds = input.timeoutSeconds;
  }
  if (input.lightContext !== undefined) out.lightContext = input.lightContext === true;
  return out;
}

function modelRef(value: unknown, what: string): string {
  if (typeof value !== "string" || !/^[^/\s]+\/\S+$/.test(value)) throw new JobInputError(`${what}: expected provider/model, got ${JSON.stringify(value)}`);
  return value;
}

const MAX_LIST_ENTRIES = 50;

function list(value: unknown, what: string, check: (entry: unknown, index: number) => string): string[] {
  if (!Array.isArray(value)) throw new JobInputError(`${what}: expected a list`);
  if (value.length === 0) throw new JobInputError(`${what} must name at least one entry (leave it out for the agent's own)`);
  if (value.length > MAX_LIST_ENTRIES) throw new JobInputError(`${what} has ${value.length} entries; the limit is ${MAX_LIST_ENTRIES}`);
  return [...new Set(value.map(check))];
}

/** A tool name (wildcards allowed) or a known `group:*`. */
function toolEntry(value: unknown, index: number): string {
  const what = `payload.tools[${index}]`;
  if (typeof value !== "string" || !/^[a-z0-9_*:.-]{1,100}$/i.test(value.trim()))
    throw new JobInputError(`${what}: expected a tool name or group:<name>, got ${JSON.stringify(value)}`);
  const entry = value.trim().toLowerCase();
  if (isToolGroup(entry) && !isKnownToolGroup(entry)) throw new JobInputError(`${what}: unknown tool group "${entry}" (see docs/tools.md for the groups)`);
  return entry;
}

function delivery(input: CronJobInput["delivery"]): CronDelivery {
  if (input === undefined) return { mode: "none" };
  if (typeof input !== "object" || input === null) throw new JobInputError("delivery: expected an object with mode none, announce or webhook");
  if (input.mode === "none") return { mode: "none" };
  if (input.mode === "webhook") {
    let url: URL;
    try {
      url = new URL(String(input.to ?? ""));
    } catch {
      throw new JobInputError("delivery.to: a webhook delivery needs an http(s) URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new JobInputError(`delivery.to: only http and https URLs, got ${url.protocol}`);
    if (url.username || url.password) throw new JobInputError("delivery.to: put credentials in cron.webhookToken, not in the URL");
    return { mode: "webhook", to: url.href };
  }
  if (input.mode === "session") return { mode: "session", to: input.to === undefined ? "main" : text(input.to, "delivery.to", 500) };
  if (input.mode !== "announce") throw new JobInputError(`delivery.mode: expected "none", "announce", "webhook" or "session", got ${JSON.stringify(input.mode)}`);
  const out: CronDelivery = { mode: "announce" };
  const channel = input.channel ?? "last";
  if (typeof channel !== "string" || !/^[a-z][a-z0-9_-]*$/.test(channel)) throw new JobInputError(`delivery.channel: expected a channel id (telegram, discord, slack) or "last"`);
  out.channel = channel;
  if (input.to !== undefined) out.to = text(input.to, "delivery.to", 500);
  if (channel !== "last" && out.to === undefined) throw new JobInputError(`delivery.to: announcing to ${channel} needs the chat to send to`);
  if (input.accountId !== undefined) out.accountId = text(input.accountId, "delivery.accountId", 100);
  if (input.threadId !== undefined) out.threadId = text(input.threadId, "delivery.threadId", 200);
  if (input.bestEffort !== undefined) out.bestEffort = input.bestEffort === true;
  return out;
}

/** Rules across fields: the main session takes system events, other targets take agent turns. */
function checkCombination(job: CronJob): void {
  if (job.sessionTarget === "main" && job.payload.kind !== "systemEvent") {
    throw new JobInputError('sessionTarget "main" takes a systemEvent payload (text for the main session); use "isolated" for an agentTurn');
  }
  if (job.delivery.mode === "session" && job.sessionTarget !== "isolated") {
    throw new JobInputError('delivery "session" reports an isolated run to a session; use sessionTarget "isolated"');
  }
  if (job.sessionTarget !== "main" && job.payload.kind !== "agentTurn") {
    throw new JobInputError(`sessionTarget "${job.sessionTarget}" takes an agentTurn payload (a message for the agent); systemEvent goes to "main"`);
  }
  if (job.payload.kind === "agentTurn" && job.sessionTarget !== "isolated") {
    const own = (["model", "fallbacks", "thinking", "timeoutSeconds", "lightContext", "tools"] as const).filter((k) => (job.payload as Record<string, unknown>)[k] !== undefined);
    if (own.length > 0) throw new JobInputError(`payload.${own[0]} applies to isolated runs only: a shared session keeps its own settings`);
  }
  if (job.payload.kind === "systemEvent" && job.delivery.mode !== "none") {
    throw new JobInputError("delivery: a systemEvent job has no reply of its own to deliver (the main session answers where it lives)");
  }
}

/** Only a one-shot job is removed after its run; a recurring one never has a last run to remove it after. */
function checkDeleteAfterRun(job: CronJob): void {
  if (job.deleteAfterRun === true && job.schedule.kind !== "at") {
    throw new JobInputError(
      `deleteAfterRun: only a one-shot (at) job is removed after its run; this one runs ${job.schedule.kind === "every" ? "every interval" : "on its cron expression"} (remove it with cron.remove)`,
    );
  }
}
