import { Type } from "@sinclair/typebox";
import { integer, withExpected } from "./primitives.js";

/** Run traces (docs/traces.md): what is kept, for how long, and where spans are exported. */
export const DiagnosticsSchema = Type.Object({
  traces: Type.Optional(
    Type.Object({
      /** Default true: every run's trace is stored under `<state>/traces/`. */
      enabled: Type.Optional(Type.Boolean()),
      /** Default 14: traces older than this many days are deleted. */
      retentionDays: Type.Optional(integer(1, 3650)),
      /** Default 256 MiB: past this size the oldest traces are deleted first. */
      maxBytes: Type.Optional(integer(1_048_576)),
    }),
  ),
  otel: Type.Optional(
    Type.Object({
      /** An OTLP/HTTP traces endpoint (`http://collector:4318/v1/traces`). Unset: no exporter is loaded. */
      endpoint: Type.Optional(withExpected(Type.String({ pattern: "^https?://" }), "an http:// or https:// URL")),
      /** Extra request headers (an ingest key), sent with every export. */
      headers: Type.Optional(Type.Record(Type.String(), Type.String())),
      /** `service.name` of the exported spans; default `openclaw-gateway`. */
      serviceName: Type.Optional(Type.String({ minLength: 1 })),
    }),
  ),
});
