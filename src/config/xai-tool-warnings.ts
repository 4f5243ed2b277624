import type { RawOpenClawConfig } from "./schema/index.js";
import { hasXaiKey } from "./web-search-warnings.js";

const TOOLS = [
  ["xSearch", "x_search"],
  ["codeExecution", "code_execution"],
] as const;

/** An xAI tool turned on (`enabled: true`) without an xAI key to call it with: it is not offered, and the load says so. */
export function xaiToolWarnings(config: RawOpenClawConfig, env: NodeJS.ProcessEnv): string[] {
  const xai = config.plugins?.entries?.xai?.config;
  if (!xai || hasXaiKey(config, env)) return [];
  return TOOLS.filter(([key]) => xai[key]?.enabled === true).map(
    ([key, tool]) =>
      `plugins.entries.xai.config.${key}.enabled is true but no xAI key is set (plugins.entries.xai.config.webSearch.apiKey, models.providers.xai.apiKey or $XAI_API_KEY): ${tool} is not offered`,
  );
}
