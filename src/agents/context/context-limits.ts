import type { OpenClawConfig } from "../../config/index.js";
import { resolveAgentConfig } from "../agent-config.js";

/** `contextLimits.memoryGetMaxChars`: the agent's, else `agents.defaults`', else none (the tool's own limit). */
export function memoryGetLimit(config: OpenClawConfig, agentId: string): { memoryGetMaxChars?: number } {
  const limit = resolveAgentConfig(config, agentId)?.contextLimits?.memoryGetMaxChars ?? config.agents.defaults.contextLimits?.memoryGetMaxChars;
  return limit === undefined ? {} : { memoryGetMaxChars: limit };
}
