import { listAgentConfigs, normalizeAgentId, type AgentsConfigView } from "../../agents/agent-config.js";
import { invalidRequest } from "../protocol/errors.js";

/**
 * An agent id a client names for new work must be one the config defines (the implicit `main`
 * when it defines none): an unknown one would start sessions, files and turns for an agent
 * nobody configured.
 */
export function assertKnownAgent(config: AgentsConfigView, agentId: string | undefined): void {
  if (agentId === undefined) return;
  const known = listAgentConfigs(config).map((a) => a.id);
  if (known.includes(normalizeAgentId(agentId))) return;
  throw invalidRequest(`unknown agent "${agentId}"; known agents: ${known.join(", ")} (define it under agents.entries to use it)`);
}
