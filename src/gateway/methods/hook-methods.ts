import { Type } from "@sinclair/typebox";
import { listAgentConfigs } from "../../agents/agent-config.js";
import type { DiscoveredHook } from "../../hooks/internal/discover-hooks.js";
import { hookStatusReport } from "../../hooks/internal/hook-status.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

/** What `hooks.status` reads of the running hook runner. */
export interface HookStatusSource {
  hooks(): DiscoveredHook[];
  workspaceDir(): string;
}

/**
 * `hooks.status` (what OpenClaw's `openclaw hooks list|info|check` read): the internal hooks this
 * gateway discovered and whether each runs. Hooks are the gateway's, not an agent's, so every
 * known agent gets the same report.
 */
export function registerHookMethods(registry: MethodRegistry, source: HookStatusSource): void {
  registry.register({
    name: "hooks.status",
    scope: "operator.read",
    params: Type.Object({ agentId: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const config = runtime.config();
      const agentId = params.agentId?.toLowerCase();
      if (agentId && !listAgentConfigs(config).some((a) => a.id === agentId)) throw invalidRequest(`unknown agent "${agentId}" (agents.list names the agents)`);
      return hookStatusReport(source.hooks(), config, { workspaceDir: source.workspaceDir(), stateDir: runtime.stateDir });
    },
  });
}
