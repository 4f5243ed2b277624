import type { OpenClawConfig } from "../../../config/index.js";
import { configuredApiKey, usableApiKey } from "../../../models/index.js";

/** xAI's public Responses API base URL; `/responses` is appended. */
export const XAI_DEFAULT_BASE_URL = "https://api.x.ai/v1";

/** The model the grok web_search provider, x_search and code_execution use unless their config names one. */
export const XAI_DEFAULT_TOOL_MODEL = "grok-4.7";

/** Where an xAI key is set, in the order they are read (said in refusals and warnings). */
export const XAI_KEY_HINT = "plugins.entries.xai.config.webSearch.apiKey, models.providers.xai.apiKey or XAI_API_KEY";

/**
 * The xAI key the xAI tools send: `plugins.entries.xai.config.webSearch.apiKey`, else the `xai`
 * model provider's key (`models.providers.xai.apiKey`), else `$XAI_API_KEY`. A `${VAR}` left as
 * written (the variable was not set) is no key.
 */
export function xaiApiKey(config: OpenClawConfig, env: NodeJS.ProcessEnv): string | undefined {
  return usableApiKey(config.plugins?.entries?.xai?.config?.webSearch?.apiKey) ?? configuredApiKey(config, "xai") ?? (env.XAI_API_KEY?.trim() || undefined);
}

/** The Responses API base URL shared by the xAI tools: `plugins.entries.xai.config.webSearch.baseUrl`, else xAI's. */
export function xaiBaseUrl(config: OpenClawConfig): string {
  return config.plugins?.entries?.xai?.config?.webSearch?.baseUrl ?? XAI_DEFAULT_BASE_URL;
}
