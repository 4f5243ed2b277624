import { Type } from "@sinclair/typebox";
import { integer, stringEnum, withExpected } from "./primitives.js";

const HttpUrl = withExpected(Type.String({ pattern: "^https?://" }), "an http:// or https:// URL");

/** Run traces (docs/traces.md): what is kept, for how long, and where spans are exported. */
export const DiagnosticsSchema = Type.Object({
  /** Default true; false: no run is traced, nothing is exported. */
  enabled: Type.Optional(Type.Boolean()),
  traces: Type.Optional(
    Type.Object({
      /** Default true: every run's trace is stored under `<state>/traces/`. */
      enabled: Type.Optional(Type.Boolean()),
      /** Default 14: traces older than this many days are deleted. */
      retentionDays: Type.Optional(integer(1, 3650)),
      /** Default 256 MiB: past this size the oldest traces are deleted first. */
      maxBytes: Type.Optional(integer(1_048_576)),
      /** Searching traces by meaning (docs/traces.md#searching-by-meaning). */
      search: Type.Optional(
        Type.Object({
          /** Default false: true embeds every trace with memory.search's embedding provider (one request per 16 traces). */
          embeddings: Type.Optional(Type.Boolean()),
        }),
      ),
      /** The review queue: which traces are routed to an operator's review, by rule (docs/traces.md#review-queue). */
      review: Type.Optional(
        Type.Object({
          /** Default true; false: no run is queued (feedback is still recorded). */
          enabled: Type.Optional(Type.Boolean()),
          /** The share of the other runs queued at random, 0-1 (default 0.1). */
          sampleRate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          /** Random sampling only for runs that start between these host-local times (HH:MM, 24h); `end` before `start` crosses midnight. */
          sampleWindow: Type.Optional(
            Type.Object({ start: Type.String({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" }), end: Type.String({ pattern: "^([01]\\d|2[0-4]):[0-5]\\d$" }) }),
          ),
          /** A run whose tokens (in + out, over all its model calls) reach this is queued (default 200000; 0: off). */
          highCostTokens: Type.Optional(integer(0)),
          /** Every run within this many hours of an agent's first run on a model is queued (default 48; 0: off). */
          newModelHours: Type.Optional(integer(0, 8760)),
          /** Every run within this many hours of an agent's first run on a new prompt version is queued (default 48; 0: off). */
          newPromptHours: Type.Optional(integer(0, 8760)),
          /** An LLM judge grading every queued run against the rubric in the background; absent: no judge runs. */
          judge: Type.Optional(
            Type.Object({
              /** What a good run does, in the operator's words: the judge answers PASS or FAIL against it. */
              rubric: withExpected(Type.String({ minLength: 1, pattern: "\\S" }), "a non-empty rubric: what a good run does, in the words the judge grades each run against"),
              /** The judge's model; default: the default agent's model. */
              model: Type.Optional(withExpected(Type.String({ pattern: "^[^/\\s]+/\\S+$" }), 'a "provider/model" ref')),
            }),
          ),
          /** Default true: a 👍/👎 by someone allowed to talk to the bot, on its reply in a chat, rates the run that wrote it. */
          reactionFeedback: Type.Optional(Type.Boolean()),
        }),
      ),
    }),
  ),
  otel: Type.Optional(
    Type.Object({
      /** Unset: export when an endpoint is set; false: never; true: an endpoint is required. */
      enabled: Type.Optional(Type.Boolean()),
      /** The collector's OTLP/HTTP base (`http://collector:4318`): `/v1/traces` is added. Unset: no exporter is loaded. */
      endpoint: Type.Optional(HttpUrl),
      /** The exact traces URL, over `endpoint`. */
      tracesEndpoint: Type.Optional(HttpUrl),
      /** `http/protobuf` (default) or `http/json`. */
      protocol: Type.Optional(stringEnum(["http/protobuf", "http/json"])),
      /** Default true: export run traces. */
      traces: Type.Optional(Type.Boolean()),
      /** The share of runs whose spans are exported, 0-1 (default 1). */
      sampleRate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      /** How long spans are batched before they are sent (ms, at least 1000; default 1000). */
      flushIntervalMs: Type.Optional(integer(1_000, 3_600_000)),
      /** Export what was said (the run's messages and output, tool arguments and results), redacted as traces are. Default false. */
      captureContent: Type.Optional(Type.Boolean()),
      /** Extra request headers (an ingest key), sent with every export. */
      headers: Type.Optional(Type.Record(Type.String(), Type.String())),
      /** `service.name` of the exported spans; default `$OTEL_SERVICE_NAME`, else `openclaw`. */
      serviceName: Type.Optional(Type.String({ minLength: 1 })),
    }),
  ),
});
