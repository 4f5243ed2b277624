import { listAgentConfigs, normalizeAgentId, type AgentsConfigView } from "./agent-config.js";

/**
 * An agent id a client names for new work (a turn, a session, a scheduled job) must be one the
 * config defines (the implicit `main` when it defines none): an unknown one would start
 * sessions, files and turns for an agent nobody configured. The refusal names the known agents;
 * undefined when `agentId` is known or absent.
 */
export function unknownAgentRefusal(config: AgentsConfigView, agentId: string | undefined): string | undefined {
  if (agentId === undefined) return undefined;
  const known = listAgentConfigs(config).map((a) => a.id);
  if (known.includes(normalizeAgentId(agentId))) return undefined;
  return `unknown agent "${agentId}"; known agents: ${known.join(", ")} (define it under agents.entries to use it)`;
}
