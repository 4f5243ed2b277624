import type { OpenClawConfig } from "../config/index.js";

export interface TraceSettings {
  enabled: boolean;
  retentionDays: number;
  maxBytes: number;
  otel?: { endpoint: string; headers: Record<string, string>; serviceName: string };
}

export const DEFAULT_TRACE_RETENTION_DAYS = 14;
export const DEFAULT_TRACE_MAX_BYTES = 256 * 1024 * 1024;

/** `diagnostics.*` with its defaults (docs/configuration.md). */
export function traceSettings(config: OpenClawConfig): TraceSettings {
  const traces = config.diagnostics?.traces;
  const otel = config.diagnostics?.otel;
  return {
    enabled: traces?.enabled ?? true,
    retentionDays: traces?.retentionDays ?? DEFAULT_TRACE_RETENTION_DAYS,
    maxBytes: traces?.maxBytes ?? DEFAULT_TRACE_MAX_BYTES,
    ...(otel?.endpoint ? { otel: { endpoint: otel.endpoint, headers: otel.headers ?? {}, serviceName: otel.serviceName ?? "openclaw-gateway" } } : {}),
  };
}
