import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * `diagnostics.otel` keys that load but do nothing here: export settings with no endpoint to
 * export to (in the config or the standard `OTEL_EXPORTER_OTLP_*` variables).
 */
export function otelWarnings(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  const otel = config.diagnostics?.otel;
  if (!otel) return [];
  const warnings: string[] = [];
  const endpoint = otel.endpoint ?? otel.tracesEndpoint ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ?? env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (endpoint || otel.enabled === false) return warnings;
  if (otel.enabled === true) {
    warnings.push("diagnostics.otel.enabled is true but no endpoint is set (diagnostics.otel.endpoint or tracesEndpoint, or $OTEL_EXPORTER_OTLP_ENDPOINT): nothing is exported");
    return warnings;
  }
  const idle = (["headers", "serviceName", "protocol", "sampleRate", "flushIntervalMs", "captureContent"] as const)
    .filter((key) => otel[key] !== undefined)
    .map((key) => `diagnostics.otel.${key}`);
  if (idle.length > 0) warnings.push(`${idle.join(", ")} ${idle.length > 1 ? "are" : "is"} ignored: no diagnostics.otel.endpoint is set, so nothing is exported`);
  return warnings;
}
