import type { RawOpenClawConfig } from "./schema/index.js";

/** Keys that only act beside another key: set without it, they load with a warning saying they are ignored. */
export function dependentKeyWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  const otel = config.diagnostics?.otel;
  if (otel && !otel.endpoint) {
    const idle = (["headers", "serviceName"] as const).filter((key) => otel[key] !== undefined).map((key) => `diagnostics.otel.${key}`);
    if (idle.length > 0) warnings.push(`${idle.join(" and ")} ${idle.length > 1 ? "are" : "is"} ignored: no diagnostics.otel.endpoint is set, so nothing is exported`);
  }
  return warnings;
}
