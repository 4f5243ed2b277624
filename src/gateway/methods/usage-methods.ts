import { Type } from "@sinclair/typebox";
import type { OpenClawConfig } from "../../config/index.js";
import { estimateCostUsd, modelCostRates } from "../../models/model-cost.js";
import type { UsageRecord, UsageRecords } from "../../sessions/usage/usage-records.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const DAY_MS = 86_400_000;
const DateString = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });

/** Token and cost totals of a set of model calls. `missingCostEntries`: calls whose model has no configured price. */
export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  totalCost: number;
  missingCostEntries: number;
  calls: number;
}

const emptyTotals = (): UsageTotals => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, totalCost: 0, missingCostEntries: 0, calls: 0 });

function add(totals: UsageTotals, record: UsageRecord, config: OpenClawConfig): void {
  const { usage } = record;
  totals.input += usage.input;
  totals.output += usage.output;
  totals.cacheRead += usage.cacheRead;
  totals.cacheWrite += usage.cacheWrite;
  totals.totalTokens += usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  totals.calls += 1;
  const cost = estimateCostUsd(usage, modelCostRates(modelRef(record), config));
  if (cost === undefined) totals.missingCostEntries += 1;
  else totals.totalCost += cost;
}

const modelRef = (r: UsageRecord) => (r.provider && r.model ? `${r.provider}/${r.model}` : r.model);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function groupBy(records: readonly UsageRecord[], keyOf: (r: UsageRecord) => string, config: OpenClawConfig): Map<string, UsageTotals> {
  const groups = new Map<string, UsageTotals>();
  for (const record of records) {
    const key = keyOf(record);
    let totals = groups.get(key);
    if (!totals) groups.set(key, (totals = emptyTotals()));
    add(totals, record, config);
  }
  return groups;
}

/** The calls of a UTC date range, summed in total, per day, per agent and per model. */
function summarize(records: readonly UsageRecord[], config: OpenClawConfig) {
  const totals = emptyTotals();
  for (const r of records) add(totals, r, config);
  return {
    totals,
    daily: [...groupBy(records, (r) => utcDay(r.ts), config)].sort(([a], [b]) => a.localeCompare(b)).map(([date, t]) => ({ date, ...t })),
    byAgent: [...groupBy(records, (r) => r.agentId, config)].map(([agentId, t]) => ({ agentId, ...t })),
    byModel: [...groupBy(records, (r) => `${r.provider ?? ""}\0${r.model ?? "unknown"}`, config)].map(([key, t]) => {
      const [provider, model] = key.split("\0");
      return { ...(provider ? { provider } : {}), model, ...t };
    }),
  };
}

/** `startDate`/`endDate` (inclusive, UTC) or the last `days` days up to today. */
function dateRange(params: { startDate?: string; endDate?: string; days?: number }, now = Date.now()): { startMs: number; endMs: number; startDate: string; endDate: string } {
  const endDate = params.endDate ?? utcDay(now);
  const endMs = Date.parse(`${endDate}T00:00:00Z`) + DAY_MS;
  const startMs = params.startDate ? Date.parse(`${params.startDate}T00:00:00Z`) : endMs - (params.days ?? 30) * DAY_MS;
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs)) throw invalidRequest("startDate and endDate must be real dates (YYYY-MM-DD)");
  if (startMs >= endMs) throw invalidRequest("startDate must not be after endDate");
  return { startMs, endMs, startDate: utcDay(startMs), endDate: utcDay(endMs - DAY_MS) };
}

/**
 * `usage.status` (today), `usage.cost` (a date range, per day, agent and model) and
 * `sessions.usage` (per session): token counts and estimated cost of every model call in the
 * transcripts, priced with the models' `cost` config (docs/sessions.md, "Token and cost accounting").
 */
export function registerUsageMethods(registry: MethodRegistry, records: UsageRecords): void {
  const agentParam = Type.Optional(Type.String({ minLength: 1 }));

  registry.register({
    name: "usage.status",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { runtime }) => {
      const range = dateRange({ days: 1 });
      const summary = summarize(records.read(range), runtime.config());
      return { updatedAt: Date.now(), date: range.endDate, totals: summary.totals, byAgent: summary.byAgent, byModel: summary.byModel };
    },
  });

  registry.register({
    name: "usage.cost",
    scope: "operator.read",
    params: Type.Object(
      {
        days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660 })),
        startDate: Type.Optional(DateString),
        endDate: Type.Optional(DateString),
        agentId: agentParam,
        agentScope: Type.Optional(Type.Literal("all")),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      if (params.agentScope === "all" && params.agentId) throw invalidRequest("agentScope=all cannot be combined with agentId");
      const range = dateRange(params);
      const summary = summarize(records.read({ ...range, agentId: params.agentId?.toLowerCase() }), runtime.config());
      return { updatedAt: Date.now(), startDate: range.startDate, endDate: range.endDate, days: Math.round((range.endMs - range.startMs) / DAY_MS), ...summary };
    },
  });

  registry.register({
    name: "sessions.usage",
    scope: "operator.read",
    params: Type.Object(
      {
        key: Type.Optional(Type.String({ minLength: 1 })),
        agentId: agentParam,
        agentScope: Type.Optional(Type.Literal("all")),
        startDate: Type.Optional(DateString),
        endDate: Type.Optional(DateString),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      if (params.agentScope === "all" && (params.agentId || params.key)) throw invalidRequest("agentScope=all cannot be combined with key or agentId");
      const range = dateRange(params);
      const key = params.key
        ? params.key.startsWith("agent:")
          ? params.key.toLowerCase()
          : `agent:${(params.agentId ?? "main").toLowerCase()}:${params.key.toLowerCase()}`
        : undefined;
      const agentId = key ? key.split(":")[1] : params.agentId?.toLowerCase();
      const rows = records.read({ ...range, agentId }).filter((r) => !key || r.sessionKey === key);
      const config = runtime.config();
      const bySession = groupBy(rows, (r) => `${r.sessionKey ?? ""}\0${r.sessionId}\0${r.agentId}`, config);
      const lastCall = new Map<string, number>();
      for (const r of rows) lastCall.set(r.sessionId, Math.max(lastCall.get(r.sessionId) ?? 0, r.ts));
      const sessions = [...bySession]
        .map(([id, usage]) => {
          const [sessionKey, sessionId, owner] = id.split("\0");
          return { ...(sessionKey ? { key: sessionKey } : {}), sessionId, agentId: owner, lastCallAt: lastCall.get(sessionId!) ?? 0, usage };
        })
        .sort((a, b) => b.lastCallAt - a.lastCallAt)
        .slice(0, params.limit ?? 50);
      const totals = emptyTotals();
      for (const r of rows) add(totals, r, config);
      return { updatedAt: Date.now(), startDate: range.startDate, endDate: range.endDate, sessions, totals };
    },
  });
}
