import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * `gateway.controlUi.allowedOrigins` entries are compared with a browser's `Origin` header as
 * `scheme://host[:port]`: an entry that does not read as one (`192.168.1.5:18789`,
 * `localhost:3000`) matches no page, so the page it was meant for is refused.
 */
export function controlUiOriginWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  (config.gateway?.controlUi?.allowedOrigins ?? []).forEach((entry, index) => {
    const value = entry.trim();
    if (value === "*" || readsAsOrigin(value)) return;
    const hint = value.includes("://") ? "" : ` (http://${value})`;
    warnings.push(`gateway.controlUi.allowedOrigins[${index}] "${entry}" is not an origin, so it lets no page in: write it as scheme://host[:port]${hint}`);
  });
  return warnings;
}

function readsAsOrigin(value: string): boolean {
  try {
    return new URL(value).origin !== "null";
  } catch {
    return false;
  }
}
