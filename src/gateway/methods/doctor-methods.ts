import { Type } from "@sinclair/typebox";
import { listAgentConfigs } from "../../agents/agent-config.js";
import { MemoryUnavailableError, type EmbeddingReadiness, type MemoryService } from "../../memory/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { GatewayRuntime } from "../runtime.js";
import type { MethodRegistry } from "./registry.js";

/**
 * `doctor.memory.status`: the memory readiness OpenClaw's `openclaw doctor` asks the gateway for.
 * The embedding provider's readiness as known (or, with `probe`/`deep`, asked now) and the
 * index's counts. A disabled or unopenable memory is an answer (`embedding.ok: false` saying why),
 * not an error, as the doctor prints it.
 */
export function registerDoctorMethods(registry: MethodRegistry, memory: MemoryService, defaultAgent: (runtime: GatewayRuntime) => string): void {
  registry.register({
    name: "doctor.memory.status",
    scope: "operator.read",
    params: Type.Object(
      {
        agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        probe: Type.Optional(Type.Boolean()),
        deep: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: async (params, { runtime }) => {
      const agentId = (params.agentId ?? defaultAgent(runtime)).toLowerCase();
      const known = listAgentConfigs(runtime.config()).map((a) => a.id);
      if (!known.includes(agentId)) throw invalidRequest(`unknown agent id "${params.agentId}"; known agents: ${known.join(", ")}`);
      const unavailable = (error: string): { agentId: string; embedding: EmbeddingReadiness } => ({ agentId, embedding: { ok: false, checked: true, error } });
      if (!memory.enabled()) return unavailable("memory is disabled (memory.search.enabled is false)");
      try {
        const embedding = await memory.embeddingReadiness(agentId, params.probe === true || params.deep === true);
        const status = await memory.status(agentId);
        return {
          agentId,
          provider: status.provider,
          ...(status.model ? { model: status.model } : {}),
          embedding,
          index: {
            files: status.files,
            chunks: status.chunks,
            embeddedChunks: status.embeddedChunks,
            dirty: status.dirty,
            indexing: status.indexing,
            mode: status.mode,
            ...(status.lastSyncAt ? { lastSyncAt: status.lastSyncAt } : {}),
          },
        };
      } catch (error) {
        if (error instanceof MemoryUnavailableError) return unavailable(error.message);
        throw error;
      }
    },
  });
}
