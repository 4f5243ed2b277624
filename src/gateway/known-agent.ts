import type { AgentsConfigView } from "../agents/agent-config.js";
import { unknownAgentRefusal } from "../agents/known-agent.js";
import { invalidRequest } from "./protocol/errors.js";

/** An RPC method's INVALID_REQUEST for an agent id the config does not define (see unknownAgentRefusal). */
export function assertKnownAgent(config: AgentsConfigView, agentId: string | undefined): void {
  const refusal = unknownAgentRefusal(config, agentId);
  if (refusal) throw invalidRequest(refusal);
}
