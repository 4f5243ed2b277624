import { Type } from "@sinclair/typebox";
import { MeaningSearchRefusal, RegradeRefusal, type TraceRecorder } from "../../traces/index.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

/**
 * `traces.list` and `traces.get`: the run traces `openclaw traces` shows; `traces.feedback` and
 * `traces.review.*`: the review queue, its judge's verdicts and their calibration (docs/traces.md).
 * `canonicalSessionKey` reads a session key as the session methods do (a bare `main` is the default agent's).
 */
export function registerTraceMethods(registry: MethodRegistry, traces: TraceRecorder, canonicalSessionKey: (key: string) => string): void {
  const failed = (error: unknown): never => {
    throw unavailable(`traces unavailable: ${(error as Error).message}`);
  };

  registry.register({
    name: "traces.list",
    scope: "operator.read",
    params: Type.Object(
      {
        sessionKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        since: Type.Optional(Type.Integer({ minimum: 0 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => {
      const traces_ = await traces
        .list({
          ...(params.sessionKey ? { sessionKey: canonicalSessionKey(params.sessionKey) } : {}),
          ...(params.since !== undefined ? { since: params.since } : {}),
          limit: params.limit ?? 50,
        })
        .catch(failed);
      return { traces: traces_ };
    },
  });

  const RunId = Type.String({ minLength: 1, maxLength: 256 });
  const Note = Type.Optional(Type.String({ maxLength: 2000 }));
  const missing = (runId: string) => invalidRequest(`no trace for run ${runId}: it never ran here, tracing was off (diagnostics.traces.enabled), or retention deleted it`);

  registry.register({
    name: "traces.feedback",
    scope: "operator.write",
    params: Type.Object({ runId: RunId, rating: Type.Union([Type.Literal("up"), Type.Literal("down")]), note: Note }, { additionalProperties: false }),
    handler: async (params) => {
      const recorded = await traces.feedback(params.runId, params.rating, params.note?.trim() || undefined).catch(failed);
      if (!recorded) throw missing(params.runId);
      return { ok: true, runId: params.runId, rating: params.rating, queued: recorded.queued };
    },
  });

  registry.register({
    name: "traces.review.list",
    scope: "operator.read",
    params: Type.Object(
      {
        status: Type.Optional(Type.Union([Type.Literal("pending"), Type.Literal("labelled"), Type.Literal("all")])),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
        runId: Type.Optional(RunId),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => await traces.reviewList(params.status ?? "pending", params.limit ?? 50, params.runId).catch(failed),
  });

  registry.register({
    name: "traces.review.calibration",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: async () => await traces.reviewCalibration().catch(failed),
  });

  registry.register({
    name: "traces.review.regrade",
    scope: "operator.write",
    params: Type.Object({ runId: Type.Optional(RunId), all: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    handler: async (params) => {
      if (params.runId !== undefined && params.all !== undefined) throw invalidRequest("give runId (one run) or all (every verdict), not both");
      const target = params.runId !== undefined ? { runId: params.runId } : { scope: params.all ? ("all" as const) : ("outdated" as const) };
      const result = await traces.regrade(target).catch((err: unknown) => {
        if (err instanceof RegradeRefusal) throw invalidRequest(err.message);
        return failed(err);
      });
      return { ok: true, dropped: result.dropped };
    },
  });

  registry.register({
    name: "traces.review.label",
    scope: "operator.write",
    params: Type.Object({ runId: RunId, label: Type.Union([Type.Literal("pass"), Type.Literal("fail")]), note: Note }, { additionalProperties: false }),
    handler: async (params) => {
      if (!(await traces.label(params.runId, params.label, params.note?.trim() || undefined).catch(failed))) throw missing(params.runId);
      return { ok: true, runId: params.runId, label: params.label };
    },
  });

  registry.register({
    name: "traces.search",
    scope: "operator.read",
    params: Type.Object(
      {
        query: Type.String({ minLength: 1, maxLength: 4096 }),
        sessionKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        since: Type.Optional(Type.Integer({ minimum: 0 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
        mode: Type.Optional(Type.Union([Type.Literal("words"), Type.Literal("meaning")])),
        /** Meaning search only: leave out traces scoring below this (cosine similarity, 0-1). */
        minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => {
      if (params.minScore !== undefined && params.mode !== "meaning") throw invalidRequest('minScore is for mode: "meaning" (a word search has no score)');
      const query = {
        query: params.query,
        ...(params.sessionKey ? { sessionKey: canonicalSessionKey(params.sessionKey) } : {}),
        ...(params.since !== undefined ? { since: params.since } : {}),
        limit: params.limit ?? 20,
      };
      if (params.mode === "meaning")
        return await traces.searchMeaning({ ...query, ...(params.minScore !== undefined ? { minScore: params.minScore } : {}) }).catch((err: unknown) => {
          if (err instanceof MeaningSearchRefusal) throw invalidRequest(err.message);
          throw unavailable(`meaning search failed: ${(err as Error).message}`);
        });
      const hits = await traces.search(query).catch(failed);
      if (!hits) throw invalidRequest('query has no word to search for: give words or a "quoted phrase" (letters or digits)');
      return { results: hits };
    },
  });

  registry.register({
    name: "traces.get",
    scope: "operator.read",
    params: Type.Object({ runId: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
    handler: async (params) => {
      const found = await traces.get(params.runId).catch(failed);
      if (!found) throw invalidRequest(`no trace for run ${params.runId}: it never ran here, tracing was off (diagnostics.traces.enabled), or retention deleted it`);
      return found;
    },
  });
}
