import { Type } from "@sinclair/typebox";
import { listAgentConfigs } from "../../agents/agent-config.js";
import { modelsView } from "../../agents/models-view.js";
import type { MethodRegistry } from "./registry.js";
import { invalidRequest } from "../protocol/errors.js";
import { loadOrCreateGatewayIdentity } from "../gateway-identity.js";

/** `models.list`, `gateway.identity.get`, `agents.list`, `agent.identity.get`. */
export function registerCatalogMethods(registry: MethodRegistry): void {
  registry.register({
    name: "models.list",
    scope: "operator.read",
    params: Type.Object(
      {
        agentId: Type.Optional(Type.String({ minLength: 1 })),
        sessionKey: Type.Optional(Type.String({ minLength: 1 })),
        provider: Type.Optional(Type.String({ minLength: 1 })),
        includeDetails: Type.Optional(Type.Boolean()),
        view: Type.Optional(Type.Union(["default", "configured", "provider-config", "all"].map((v) => Type.Literal(v)))),
        preparedOnly: Type.Optional(Type.Boolean()),
        refresh: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      if (params.preparedOnly && params.refresh) throw invalidRequest("preparedOnly and refresh cannot both be true");
      const agentId = params.agentId ?? (params.sessionKey?.startsWith("agent:") ? params.sessionKey.split(":")[1] : undefined);
      const view = modelsView(runtime.config(), process.env, {
        ...(agentId ? { agentId } : {}),
        ...(params.provider ? { provider: params.provider } : {}),
        availableOnly: params.view === "configured" || params.preparedOnly === true,
        allowedOnly: params.view === undefined || params.view === "default",
        includeDetails: params.includeDetails === true,
      });
      if (!view.ok) throw invalidRequest(view.message);
      return { models: view.models };
    },
  });

  registry.register({
    name: "gateway.identity.get",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { runtime }) => loadOrCreateGatewayIdentity(runtime.stateDir),
  });

  registry.register({
    name: "agents.list",
    scope: "operator.read",
    params: Type.Object({}, { additionalProperties: false }),
    handler: (_params, { runtime }) => {
      const config = runtime.config();
      const agents = listAgentConfigs(config);
      return {
        defaultId: agents.find((a) => a.isDefault)!.id,
        mainKey: config.session.mainKey,
        scope: config.session.scope,
        agents: agents.map((a) => ({
          id: a.id,
          ...(a.name ? { name: a.name } : {}),
          ...(a.identity ? { identity: a.identity } : {}),
          ...(a.workspace ? { workspace: a.workspace } : {}),
          ...(a.model ? { model: typeof a.model === "string" ? { primary: a.model } : a.model } : {}),
          kind: "agent",
        })),
      };
    },
  });

  registry.register({
    name: "agent.identity.get",
    scope: "operator.read",
    params: Type.Object({ agentId: Type.Optional(Type.String()), sessionKey: Type.Optional(Type.String()) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const agents = listAgentConfigs(runtime.config());
      const fromKey = params.sessionKey?.startsWith("agent:") ? params.sessionKey.split(":")[1] : undefined;
      const id = (params.agentId ?? fromKey ?? agents.find((a) => a.isDefault)!.id).toLowerCase();
      const agent = agents.find((a) => a.id === id);
      return {
        agentId: id,
        ...((agent?.identity?.name ?? agent?.name) ? { name: agent?.identity?.name ?? agent?.name } : {}),
        ...(agent?.identity?.emoji ? { emoji: agent.identity.emoji } : {}),
        ...(agent?.identity?.avatar ? { avatar: agent.identity.avatar, avatarStatus: "local" } : { avatarStatus: "none" }),
      };
    },
  });
}
