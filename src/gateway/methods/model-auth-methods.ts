import { Type } from "@sinclair/typebox";
import { listAgentConfigs, resolveAgentConfig } from "../../agents/agent-config.js";
import { turnCandidateChain } from "../../agents/turn-models.js";
import { parseModelRef } from "../../models/index.js";
import { modelsAuthStatus, type AuthProfileStore } from "../../models/failover/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";

/**
 * `models.authStatus`: each provider's keys and tokens (where they come from, never the secret)
 * and the cooldowns failover put on them, for the agent's turns.
 */
export function registerModelAuthMethods(registry: MethodRegistry, authProfiles: (agentId: string) => AuthProfileStore, defaultAgent: (runtime: GatewayRuntime) => string): void {
  registry.register({
    name: "models.authStatus",
    scope: "operator.read",
    params: Type.Object(
      {
        agentId: Type.Optional(Type.String({ maxLength: 64 })),
        refresh: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const config = runtime.config();
      const agentId = (params.agentId || defaultAgent(runtime)).toLowerCase();
      const known = listAgentConfigs(config).map((a) => a.id);
      if (!known.includes(agentId)) throw invalidRequest(`unknown agent id "${params.agentId}"; known agents: ${known.join(", ")}`);
      const store = authProfiles(agentId);
      if (params.refresh) store.reload();
      const chain = turnCandidateChain({ config, agent: resolveAgentConfig(config, agentId) });
      const chainProviders = (chain?.refs ?? []).flatMap((ref) => {
        const parsed = parseModelRef(ref, config);
        return parsed.ok ? [parsed.parts.provider] : [];
      });
      return modelsAuthStatus({ config, env: process.env, agentId, store, alsoProviders: chainProviders });
    },
  });
}
