import { Type } from "@sinclair/typebox";
import { defaultAgentId, listAgentConfigs } from "../../agents/agent-config.js";
import { skillStatusReport } from "../../agents/skills/skill-status.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

/** `skills.status` (what `openclaw skills list|info|check` reads): every skill of one agent and whether it is ready here. */
export function registerSkillMethods(registry: MethodRegistry): void {
  registry.register({
    name: "skills.status",
    scope: "operator.read",
    params: Type.Object({ agentId: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const config = runtime.config();
      const agentId = params.agentId?.toLowerCase() ?? defaultAgentId(config);
      if (!listAgentConfigs(config).some((a) => a.id === agentId)) throw invalidRequest(`unknown agent "${agentId}" (agents.list names the agents)`);
      return skillStatusReport(config, agentId, runtime.stateDir, process.env);
    },
  });
}
