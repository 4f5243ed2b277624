import type { OpenClawConfig } from "../config/index.js";

/** Where and how run traces are exported over OTLP (resolved `diagnostics.otel`). */
export interface OtelSettings {
  /** The exact traces URL. */
  url: string;
  protocol: "http/protobuf" | "http/json";
  headers: Record<string, string>;
  serviceName: string;
  sampleRate: number;
  flushIntervalMs: number;
  captureContent: boolean;
}

export interface TraceSettings {
  enabled: boolean;
  retentionDays: number;
  maxBytes: number;
  otel?: OtelSettings;
}

export const DEFAULT_TRACE_RETENTION_DAYS = 14;
export const DEFAULT_TRACE_MAX_BYTES = 256 * 1024 * 1024;
const DEFAULT_FLUSH_INTERVAL_MS = 1_000;
const SIGNAL_PATHS = ["/v1/traces", "/v1/metrics", "/v1/logs"];

/** `diagnostics.*` with its defaults and the standard `OTEL_*` variables as fallbacks (docs/traces.md). */
export function traceSettings(config: OpenClawConfig, env: NodeJS.ProcessEnv = process.env): TraceSettings {
  const traces = config.diagnostics?.traces;
  const otel = config.diagnostics?.enabled !== false ? otelSettings(config, env) : undefined;
  return {
    enabled: tracingEnabled(config),
    retentionDays: traces?.retentionDays ?? DEFAULT_TRACE_RETENTION_DAYS,
    maxBytes: traces?.maxBytes ?? DEFAULT_TRACE_MAX_BYTES,
    ...(otel ? { otel } : {}),
  };
}

/** Whether runs are traced at all: `diagnostics.enabled` and `diagnostics.traces.enabled`, both on by default. */
export function tracingEnabled(config: OpenClawConfig): boolean {
  return config.diagnostics?.enabled !== false && config.diagnostics?.traces?.enabled !== false;
}

/**
 * Export runs when OpenClaw's config would: `diagnostics.otel.enabled` (unset: when an endpoint is
 * known), `traces` not false, `OTEL_SDK_DISABLED` not `true`. The traces URL is `tracesEndpoint`,
 * else `$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, both exact, else the `endpoint` (or
 * `$OTEL_EXPORTER_OTLP_ENDPOINT`) base with `/v1/traces` added (a base already ending in a signal
 * path keeps it for traces).
 */
function otelSettings(config: OpenClawConfig, env: NodeJS.ProcessEnv): OtelSettings | undefined {
  const otel = config.diagnostics?.otel;
  if (otel?.enabled === false || otel?.traces === false || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const url = otel?.tracesEndpoint ?? nonBlank(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? tracesUrlOf(otel?.endpoint ?? nonBlank(env.OTEL_EXPORTER_OTLP_ENDPOINT));
  if (!url) return undefined;
  return {
    url,
    protocol: otel?.protocol ?? (env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() === "http/json" ? "http/json" : "http/protobuf"),
    headers: otel?.headers ?? {},
    serviceName: otel?.serviceName ?? nonBlank(env.OTEL_SERVICE_NAME) ?? "openclaw",
    sampleRate: otel?.sampleRate ?? 1,
    flushIntervalMs: otel?.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS,
    captureContent: otel?.captureContent === true,
  };
}

/** A collector base as the traces URL: `/v1/traces` added, or put in place of another signal's path. */
export function tracesUrlOf(base: string | undefined): string | undefined {
  if (!base) return undefined;
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/, "");
  const signal = SIGNAL_PATHS.find((p) => path.endsWith(p));
  url.pathname = signal ? `${path.slice(0, -signal.length)}/v1/traces` : `${path}/v1/traces`;
  return url.toString();
}

function nonBlank(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

/** `diagnostics.traces.search.embeddings` (default false): every trace is embedded for meaning search. */
export function meaningSearchEnabled(config: OpenClawConfig): boolean {
  return tracingEnabled(config) && config.diagnostics?.traces?.search?.embeddings === true;
}
