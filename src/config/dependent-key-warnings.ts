import { formatKeyPath } from "./key-path.js";
import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * Keys that load but have no effect beside the rest of the config: a key that only acts beside
 * another one that is missing or set otherwise, or a second agent marked default. Each gets a
 * warning saying so.
 */
export function dependentKeyWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [...extraDefaultAgentWarnings(config), ...idleCustomBindHostWarnings(config)];
  const otel = config.diagnostics?.otel;
  if (otel && !otel.endpoint) {
    const idle = (["headers", "serviceName"] as const).filter((key) => otel[key] !== undefined).map((key) => `diagnostics.otel.${key}`);
    if (idle.length > 0) warnings.push(`${idle.join(" and ")} ${idle.length > 1 ? "are" : "is"} ignored: no diagnostics.otel.endpoint is set, so nothing is exported`);
  }
  return warnings;
}

/** The first agent marked `default` (agents.list, then agents.entries, as the agents are listed) is the default; later marks do nothing. */
function extraDefaultAgentWarnings(config: RawOpenClawConfig): string[] {
  const marked = [
    ...(config.agents?.list ?? []).map((entry, index) => ({ id: entry.id, path: `agents.list[${index}].default`, isDefault: entry.default === true })),
    ...Object.entries(config.agents?.entries ?? {}).map(([id, entry]) => ({ id, path: formatKeyPath(["agents", "entries", id, "default"]), isDefault: entry.default === true })),
  ].filter((agent) => agent.isDefault);
  const first = marked[0];
  return marked.slice(1).map((agent) => `${agent.path} is ignored: agent "${first!.id}" is already marked default (the first one marked is the default agent)`);
}

/** `gateway.customBindHost` is the address only `bind: "custom"` listens on; beside any other bind it does nothing. */
function idleCustomBindHostWarnings(config: RawOpenClawConfig): string[] {
  const gateway = config.gateway;
  if (!gateway?.customBindHost?.trim() || gateway.bind === "custom") return [];
  const bind = gateway.bind === undefined ? "not set (loopback)" : `"${gateway.bind}"`;
  return [
    `gateway.customBindHost is ignored: gateway.bind is ${bind}, not "custom" (set gateway.bind to "custom" to use it, or remove it; as it is, only \`gateway run --bind custom\` uses it)`,
  ];
}
