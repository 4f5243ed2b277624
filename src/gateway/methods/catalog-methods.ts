import { Type } from "@sinclair/typebox";
import { listAgentConfigs } from "../../agents/agent-config.js";
import { isLocalBaseUrl, listConfiguredModels } from "../../models/index.js";
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
      const config = runtime.config();
      // Every agent sees the same configured models here; an agent id is still checked so a typo is an error.
      const agentId = params.agentId?.toLowerCase() ?? (params.sessionKey?.startsWith("agent:") ? params.sessionKey.split(":")[1] : undefined);
      if (agentId && !listAgentConfigs(config).some((a) => a.id === agentId)) throw invalidRequest(`unknown agent "${agentId}"`);
      const rows = listConfiguredModels(config, process.env).filter((m) => !params.provider || m.provider === params.provider);
      const visible = params.view === "configured" || params.preparedOnly ? rows.filter((m) => m.available) : rows;
      return {
        models: visible.map((m) => ({
          id: m.id,
          name: m.name ?? m.id,
          provider: m.provider,
          ref: m.ref,
          contextWindow: m.contextWindow,
          reasoning: m.reasoning,
          input: m.input,
          available: m.available,
          ...(params.includeDetails && m.baseUrl ? { local: isLocalBaseUrl(m.baseUrl) } : {}),
        })),
      };
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
