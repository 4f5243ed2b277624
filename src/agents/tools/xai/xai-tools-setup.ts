import type { OpenClawConfig } from "../../../config/index.js";
import { XAI_DEFAULT_TOOL_MODEL, xaiApiKey, xaiBaseUrl } from "./xai-credentials.js";

/** x_search's and code_execution's timeout when their config gives none. */
export const XAI_TOOL_DEFAULT_TIMEOUT_SECONDS = 30;
/** How long an x_search answer is reused when xSearch.cacheTtlMinutes is unset. */
export const X_SEARCH_DEFAULT_CACHE_TTL_MINUTES = 15;

/**
 * Which turns get an xAI tool: `xai-models` (its `enabled` omitted) only a turn whose model's
 * provider is `xai`; `every-model` (`enabled: true`) any turn.
 */
export type XaiToolReach = "xai-models" | "every-model";

/** What one xAI tool call sends and how long it may take. */
export interface XaiToolSettings {
  reach: XaiToolReach;
  apiKey: string;
  baseUrl: string;
  model: string;
  maxTurns?: number;
  timeoutMs: number;
}

export interface XSearchSettings extends XaiToolSettings {
  inlineCitations: boolean;
  cacheTtlMs: number;
}

/** The xAI tools this config can offer: each absent when disabled or without an xAI key. */
export interface XaiToolsSetup {
  xSearch?: XSearchSettings;
  codeExecution?: XaiToolSettings;
}

/**
 * x_search and code_execution as `plugins.entries.xai.config.{xSearch,codeExecution}` set them:
 * `enabled: false` turns a tool off, an xAI key is always needed (xaiApiKey), x_search's base URL
 * is its own else the shared `webSearch.baseUrl`; code_execution uses the shared one.
 */
export function xaiToolsSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): XaiToolsSetup {
  const xai = config.plugins?.entries?.xai?.config;
  const apiKey = xaiApiKey(config, env);
  if (!apiKey) return {};
  const shared = { apiKey, baseUrl: xaiBaseUrl(config) };
  const x = xai?.xSearch;
  const code = xai?.codeExecution;
  return {
    ...(x?.enabled !== false
      ? {
          xSearch: {
            ...shared,
            reach: reachOf(x?.enabled),
            baseUrl: x?.baseUrl ?? shared.baseUrl,
            model: x?.model ?? XAI_DEFAULT_TOOL_MODEL,
            ...(x?.maxTurns ? { maxTurns: x.maxTurns } : {}),
            timeoutMs: (x?.timeoutSeconds ?? XAI_TOOL_DEFAULT_TIMEOUT_SECONDS) * 1000,
            inlineCitations: x?.inlineCitations === true,
            cacheTtlMs: (x?.cacheTtlMinutes ?? X_SEARCH_DEFAULT_CACHE_TTL_MINUTES) * 60_000,
          },
        }
      : {}),
    ...(code?.enabled !== false
      ? {
          codeExecution: {
            ...shared,
            reach: reachOf(code?.enabled),
            model: code?.model ?? XAI_DEFAULT_TOOL_MODEL,
            ...(code?.maxTurns ? { maxTurns: code.maxTurns } : {}),
            timeoutMs: (code?.timeoutSeconds ?? XAI_TOOL_DEFAULT_TIMEOUT_SECONDS) * 1000,
          },
        }
      : {}),
  };
}

function reachOf(enabled: boolean | undefined): XaiToolReach {
  return enabled === true ? "every-model" : "xai-models";
}

/** Whether a turn whose model's provider is `provider` (unknown: undefined) is offered each xAI tool. */
export function offeredXaiTools(setup: XaiToolsSetup, provider: string | undefined): { xSearch: boolean; codeExecution: boolean } {
  const reaches = (settings: XaiToolSettings | undefined) => settings !== undefined && (settings.reach === "every-model" || provider === "xai");
  return { xSearch: reaches(setup.xSearch), codeExecution: reaches(setup.codeExecution) };
}

const setups = new WeakMap<OpenClawConfig, XaiToolsSetup>();

/** The setup for a loaded config, worked out once per config (a reload brings a new one): every turn asks. */
export function cachedXaiToolsSetup(config: OpenClawConfig, env: NodeJS.ProcessEnv): XaiToolsSetup {
  let setup = setups.get(config);
  if (!setup) setups.set(config, (setup = xaiToolsSetup(config, env)));
  return setup;
}
