import { defaultAgentId, normalizeAgentId } from "../../agents/agent-config.js";
import { CliError } from "../output.js";
import { agentIds, type AgentsConfigFile } from "./agents-config-file.js";

/** The agent a command names with `--agent` (any case), else the default agent; an id the config does not define is refused. */
export function targetAgentId(file: AgentsConfigFile, input: string | undefined): string {
  if (input === undefined) return defaultAgentId(file.config);
  return existingAgentId(file, input);
}

export function existingAgentId(file: AgentsConfigFile, input: string): string {
  const id = normalizeAgentId(input);
  const known = agentIds(file);
  if (!known.includes(id)) throw new CliError(`Agent "${input.trim()}" not found (configured agents: ${known.join(", ")}; openclaw agents list shows them).`);
  return id;
}
