import { Type } from "@sinclair/typebox";
import { resolveSkillStatusAgent, skillStatus } from "../../agents/skills/skill-status.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

/** `skills.status`: every skill of one agent and whether it is ready here (`openclaw skills list|info|check` compute the same locally). */
export function registerSkillMethods(registry: MethodRegistry): void {
  registry.register({
    name: "skills.status",
    scope: "operator.read",
    params: Type.Object({ agentId: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
    handler: async (params, { runtime }) => {
      const config = runtime.config();
      const agent = resolveSkillStatusAgent(config, params.agentId);
      if ("refusal" in agent) throw invalidRequest(agent.refusal);
      return (await skillStatus(config, agent.agentId, runtime.stateDir, process.env)).report;
    },
  });
}
