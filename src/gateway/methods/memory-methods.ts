import { Type } from "@sinclair/typebox";
import { listAgentConfigs } from "../../agents/agent-config.js";
import { MemoryUnavailableError, type MemoryService } from "../../memory/index.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";

const AgentId = Type.Optional(Type.String({ minLength: 1, maxLength: 64 }));

/** `memory.status` and `memory.search` for operator clients: what `openclaw memory status|search` shows. */
export function registerMemoryMethods(registry: MethodRegistry, memory: MemoryService, defaultAgent: (runtime: GatewayRuntime) => string): void {
  const agentOf = (runtime: GatewayRuntime, agentId: string | undefined): string => {
    const id = (agentId ?? defaultAgent(runtime)).toLowerCase();
    const known = listAgentConfigs(runtime.config()).map((a) => a.id);
    if (!known.includes(id)) throw invalidRequest(`unknown agent "${agentId}"; known agents: ${known.join(", ")}`);
    if (!memory.enabled()) throw unavailable("memory is disabled (memory.search.enabled is false)");
    return id;
  };
  const failed = (error: unknown): never => {
    if (error instanceof MemoryUnavailableError) throw unavailable(error.message);
    throw error;
  };

  registry.register({
    name: "memory.status",
    scope: "operator.read",
    params: Type.Object({ agentId: AgentId }, { additionalProperties: false }),
    handler: async (params, ctx) => memory.status(agentOf(ctx.runtime, params.agentId)).catch(failed),
  });

  registry.register({
    name: "memory.search",
    scope: "operator.read",
    params: Type.Object(
      {
        query: Type.String({ maxLength: 100_000 }),
        agentId: AgentId,
        maxResults: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
        minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      },
      { additionalProperties: false },
    ),
    handler: async (params, ctx) => {
      const agentId = agentOf(ctx.runtime, params.agentId);
      return memory
        .search(agentId, params.query, {
          ...(params.maxResults !== undefined ? { maxResults: params.maxResults } : {}),
          ...(params.minScore !== undefined ? { minScore: params.minScore } : {}),
        })
        .then((answer) => ({ agentId, ...answer }))
        .catch(failed);
    },
  });
}
