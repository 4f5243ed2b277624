import type { OpenClawConfig } from "../../config/index.js";

/** `contextLimits.memoryGetMaxChars`: the agent's (its resolved entry), else `agents.defaults`', else none (the tool's own limit). */
export function memoryGetLimit(config: OpenClawConfig, agent: { contextLimits?: { memoryGetMaxChars?: number } } | undefined): { memoryGetMaxChars?: number } {
  const limit = agent?.contextLimits?.memoryGetMaxChars ?? config.agents.defaults.contextLimits?.memoryGetMaxChars;
  return limit === undefined ? {} : { memoryGetMaxChars: limit };
}
