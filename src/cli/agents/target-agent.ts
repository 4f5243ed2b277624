import { defaultAgentId } from "../../agents/agent-config.js";
import { existingAgentId, type AgentsConfigFile } from "../../agents/roster/agents-file.js";

/** The agent a command names with `--agent` (any case), else the default agent; an id the config does not define is refused. */
export function targetAgentId(file: AgentsConfigFile, input: string | undefined): string {
  if (input === undefined) return defaultAgentId(file.config);
  return existingAgentId(file, input);
}
