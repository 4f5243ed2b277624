import type { OpenClawConfig } from "../../config/index.js";
import { DEFAULT_POST_COMPACTION_MAX_CHARS } from "./post-compaction-context.js";

/** `contextLimits.memoryGetMaxChars`: the agent's (its resolved entry), else `agents.defaults`', else none (the tool's own limit). */
export function memoryGetLimit(config: OpenClawConfig, agent: { contextLimits?: { memoryGetMaxChars?: number } } | undefined): { memoryGetMaxChars?: number } {
  const limit = agent?.contextLimits?.memoryGetMaxChars ?? config.agents.defaults.contextLimits?.memoryGetMaxChars;
  return limit === undefined ? {} : { memoryGetMaxChars: limit };
}

/** `contextLimits.postCompactionMaxChars`: the agent's, else `agents.defaults`', else 1800. */
export function postCompactionMaxChars(config: OpenClawConfig, agent: { contextLimits?: { postCompactionMaxChars?: number } } | undefined): number {
  return agent?.contextLimits?.postCompactionMaxChars ?? config.agents.defaults.contextLimits?.postCompactionMaxChars ?? DEFAULT_POST_COMPACTION_MAX_CHARS;
}
