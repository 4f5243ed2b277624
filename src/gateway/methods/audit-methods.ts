import { Type } from "@sinclair/typebox";
import { type AuditEvent, type AuditedRun, auditEventsOfRun } from "../../traces/audit-events.js";
import type { TraceRecorder } from "../../traces/index.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import { registerAuditRunInspect } from "./audit-run-inspect.js";
import type { MethodRegistry } from "./registry.js";

/** How many of the newest run traces a listing reads. */
const SCANNED_RUNS = 1000;
const Text = Type.String({ minLength: 1, maxLength: 512 });

const AuditParams = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    cursor: Type.Optional(Type.String({ maxLength: 32 })),
    agentId: Type.Optional(Text),
    sessionKey: Type.Optional(Text),
    runId: Type.Optional(Text),
    kind: Type.Optional(Type.Union([Type.Literal("agent_run"), Type.Literal("tool_action"), Type.Literal("message")])),
    status: Type.Optional(Type.Union(["started", "succeeded", "failed", "cancelled", "timed_out", "blocked", "unknown"].map((s) => Type.Literal(s)))),
    after: Type.Optional(Type.Integer({ minimum: 0 })),
    before: Type.Optional(Type.Integer({ minimum: 0 })),
    direction: Type.Optional(Type.Union([Type.Literal("inbound"), Type.Literal("outbound")])),
    channel: Type.Optional(Text),
  },
  { additionalProperties: false },
);
type AuditQuery = typeof AuditParams.static;

/**
 * `audit.activity.list` and `audit.list` (what OpenClaw's `openclaw audit` reads): agent runs and
 * their tool actions, read from the run traces (docs/traces.md), newest first. This gateway keeps
 * no record of chat messages, so the message filters are refused rather than answered empty.
 * `canonicalSessionKey` reads a session key as the session methods do (a bare `main` is the default agent's).
 */
export function registerAuditMethods(registry: MethodRegistry, traces: TraceRecorder, canonicalSessionKey: (key: string) => string): void {
  for (const name of ["audit.activity.list", "audit.list"]) {
    registry.register({
      name,
      scope: "operator.read",
      params: AuditParams,
      handler: async (params) => {
        const query = params.sessionKey ? { ...params, sessionKey: canonicalSessionKey(params.sessionKey) } : params;
        const page = await listAudit(name, query, traces);
        return name === "audit.list" ? page : { ...page, events: page.events.map((e) => ({ ...e, eventType: e.kind })) };
      },
    });
  }
  registerAuditRunInspect(registry, traces);
}

async function listAudit(method: string, params: AuditQuery, traces: TraceRecorder): Promise<{ events: AuditEvent[]; nextCursor?: string }> {
  if (params.kind === "message" || params.direction !== undefined || params.channel !== undefined) {
    throw invalidRequest("not supported: this gateway keeps no audit record of chat messages (kind message, direction, channel); it records agent runs and their tool actions");
  }
  // A cursor is the count of events earlier pages returned (nextCursor), so always positive.
  const badCursor = params.cursor !== undefined && !/^[1-9]\d{0,14}$/.test(params.cursor);
  if (badCursor || (params.after !== undefined && params.before !== undefined && params.after > params.before)) throw invalidRequest(`invalid ${method} range or cursor`);
  const offset = params.cursor === undefined ? 0 : Number(params.cursor);
  let runs: AuditedRun[];
  try {
    runs = await readRuns(params, traces);
  } catch (err) {
    throw unavailable(`audit unavailable: the run traces cannot be read: ${(err as Error).message}`);
  }
  // Newest first; events of one run at the same millisecond stay in the order they happened.
  const events = runs
    .flatMap((run) => auditEventsOfRun(run).map((event, step) => ({ event, step })))
    .sort((a, b) => b.event.occurredAt - a.event.occurredAt || a.event.runId.localeCompare(b.event.runId) || b.step - a.step)
    .map(({ event }) => event)
    .filter(
      (e) =>
        (params.agentId === undefined || e.agentId === params.agentId) &&
        (params.kind === undefined || e.kind === params.kind) &&
        (params.status === undefined || e.status === params.status) &&
        (params.after === undefined || e.occurredAt >= params.after) &&
        (params.before === undefined || e.occurredAt <= params.before),
    );
  const limit = params.limit ?? 100;
  const page = events.slice(offset, offset + limit);
  return { events: page, ...(offset + limit < events.length ? { nextCursor: String(offset + limit) } : {}) };
}

async function readRuns(params: AuditQuery, traces: TraceRecorder): Promise<AuditedRun[]> {
  const summaries = await traces.list({
    ...(params.sessionKey ? { sessionKey: params.sessionKey } : {}),
    ...(params.agentId ? { agentId: params.agentId } : {}),
    ...(params.runId ? { runId: params.runId } : {}),
    limit: SCANNED_RUNS,
  });
  const runs: AuditedRun[] = [];
  for (const summary of summaries) {
    if (params.after !== undefined && summary.startedAt + summary.durationMs < params.after) continue;
    if (params.before !== undefined && summary.startedAt > params.before) continue;
    runs.push({ ...summary, toolCalls: summary.toolCalls > 0 ? await traces.toolCallOutlines(summary.runId) : [] });
  }
  return runs;
}
