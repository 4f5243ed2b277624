import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import { defaultAgentId, resolveAgentConfig } from "../../agents/agent-config.js";
import { compileToolList, isMcpToolName, MCP_TOOLS_ENTRY, profileAllowList, TOOL_GROUPS, TOOL_PROFILE_NAMES } from "../../agents/policy/index.js";
import { createAvailableTools } from "../../agents/tools/index.js";
import { webFetchOptionsFromConfig } from "../../agents/web-fetch-options.js";
import type { AgentTool } from "../../agents/types.js";
import type { OpenClawConfig } from "../../config/index.js";
import { invalidRequest } from "../protocol/errors.js";
import type { ToolInvokeErrorType, ToolInvokeOutcome, ToolInvokeRequest } from "../tools-invoke/invoke-tool.js";
import type { MethodRegistry } from "./registry.js";
import { sessionTools, type ToolAvailability } from "../session-tools.js";

const GROUP_LABELS: Record<string, string> = {
  fs: "Files",
  runtime: "Runtime",
  web: "Web",
  sessions: "Sessions",
  memory: "Memory",
  messaging: "Messaging",
  automation: "Automation",
};
const PROFILE_LABELS: Record<string, string> = { minimal: "Minimal", coding: "Coding", messaging: "Messaging", full: "Full" };

function groupOf(tool: string): string {
  for (const [group, members] of Object.entries(TOOL_GROUPS)) {
    const id = group.slice("group:".length);
    if (GROUP_LABELS[id] && members.includes(tool)) return id;
  }
  return "other";
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

/** Tools grouped the way OpenClaw's catalog shows them, in the gateway's fixed tool order. */
function grouped<T>(tools: readonly AgentTool[], entry: (tool: AgentTool) => T): { id: string; label: string; source: "core"; tools: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const tool of tools) {
    const id = groupOf(tool.name);
    groups.set(id, [...(groups.get(id) ?? []), entry(tool)]);
  }
  return [...groups].map(([id, list]) => ({ id, label: GROUP_LABELS[id] ?? "Other", source: "core" as const, tools: list }));
}

function knownAgent(config: OpenClawConfig, requested: string | undefined): string {
  const agentId = (requested ?? defaultAgentId(config)).toLowerCase();
  if (!resolveAgentConfig(config, agentId) && agentId !== defaultAgentId(config)) throw invalidRequest(`unknown agent "${agentId}"`);
  return agentId;
}

/**
 * `tools.catalog` (every tool this gateway can offer), `tools.effective` (what a session's next
 * turn gets) and `tools.invoke` (one tool, called directly: the same as `POST /tools/invoke`).
 */
export function registerToolMethods(
  registry: MethodRegistry,
  conversations: ConversationPort,
  availability: () => ToolAvailability,
  invoke: (request: ToolInvokeRequest, options: { signal: AbortSignal }) => Promise<ToolInvokeOutcome>,
  /** The configured MCP servers' tools (started on first use), for `tools.effective`. */
  mcpTools: (config: OpenClawConfig) => Promise<readonly AgentTool[] | undefined> = async () => undefined,
): void {
  const available = (config: OpenClawConfig) => {
    const offered = availability();
    return createAvailableTools({
      ...offered,
      // Every tool the gateway can offer some model: an xAI tool is listed whichever models it reaches.
      xSearch: offered.xai.xSearch !== undefined,
      codeExecution: offered.xai.codeExecution !== undefined,
      sessionTools: true,
      viewImage: "see",
      webFetch: webFetchOptionsFromConfig(config),
      // A session's own runs get it unless tools.updatePlan turns it off (offersProgressCard).
      progressCard: offered.progressCards && config.tools?.updatePlan !== false,
    });
  };

  registry.register({
    name: "tools.catalog",
    scope: "operator.read",
    params: Type.Object({ agentId: Type.Optional(Type.String({ minLength: 1 })), includePlugins: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    handler: (params, { runtime }) => {
      const config = runtime.config();
      const agentId = knownAgent(config, params.agentId);
      const profiles = TOOL_PROFILE_NAMES.map((id) => ({ id, matcher: profileAllowList(id) ? compileToolList(profileAllowList(id)!) : undefined }));
      return {
        agentId,
        profiles: TOOL_PROFILE_NAMES.map((id) => ({ id, label: PROFILE_LABELS[id]! })),
        groups: grouped(available(config), (tool) => ({
          id: tool.name,
          label: tool.name,
          description: firstSentence(tool.description),
          source: "core",
          ...(tool.ownerOnly ? { risk: "high" } : {}),
          fullDescription: tool.description,
          defaultProfiles: profiles.filter((p) => !p.matcher || p.matcher.matchOf(tool.name) !== undefined).map((p) => p.id),
        })),
      };
    },
  });

  registry.register({
    name: "tools.effective",
    scope: "operator.read",
    params: Type.Object({ agentId: Type.Optional(Type.String({ minLength: 1 })), sessionKey: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    handler: async (params, { runtime }) => {
      const config = runtime.config();
      const resolved = conversations.resolveSessionKey(params.sessionKey, params.agentId?.toLowerCase());
      const agentId = knownAgent(config, resolved.agentId);
      const mcp = await mcpTools(config);
      // Operator clients are the owner; channel senders who are not are narrowed further per message.
      const { tools, policy } = sessionTools({
        ...(mcp ? { mcpTools: mcp } : {}),
        config,
        conversations,
        sessions: runtime.sessions(),
        availability: availability(),
        sessionKey: params.sessionKey,
        agentId,
        senderIsOwner: true,
      });
      const profile = (config as { tools?: { profile?: string } }).tools?.profile ?? "full";
      return {
        agentId,
        profile,
        groups: [
          {
            id: "core",
            label: "Core",
            source: "core",
            tools: tools
              .filter((tool) => !isMcpToolName(tool.name))
              .map((tool) => ({ id: tool.name, label: tool.name, description: firstSentence(tool.description), rawDescription: tool.description, source: "core" })),
          },
          ...mcpGroup(tools.filter((tool) => isMcpToolName(tool.name))),
        ],
        ...(policy.warnings.length > 0 ? { notices: policy.warnings.map((message, i) => ({ id: `policy-${i + 1}`, severity: "warning", message })) } : {}),
      };
    },
  });

  registry.register({
    name: "tools.invoke",
    scope: "operator.write",
    params: Type.Object(
      {
        name: Type.String({ minLength: 1 }),
        args: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        action: Type.Optional(Type.String()),
        sessionKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        agentId: Type.Optional(Type.String({ minLength: 1 })),
        /** Accepted as OpenClaw's clients send it; a direct call has no call id to name here. */
        idempotencyKey: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => {
      const outcome = await invoke(params, { signal: new AbortController().signal });
      if (outcome.ok) return { ok: true, toolName: outcome.toolName, output: outcome.result, source: "core" };
      return { ok: false, toolName: outcome.toolName, error: { code: RPC_ERROR_CODES[outcome.error.type], message: outcome.error.message } };
    },
  });
}

/** `tools.invoke` failures, coded as OpenClaw's RPC adapter codes them. */
const RPC_ERROR_CODES: Record<ToolInvokeErrorType, string> = {
  invalid_request: "validation_error",
  not_found: "not_found",
  tool_call_blocked: "forbidden",
  tool_error: "internal_error",
};

/** The MCP servers' tools as OpenClaw lists plugin tools: their own group, under the `bundle-mcp` plugin id. */
function mcpGroup(tools: readonly AgentTool[]) {
  if (tools.length === 0) return [];
  const entries = tools.map((tool) => ({
    id: tool.name,
    label: tool.name,
    description: firstSentence(tool.description),
    rawDescription: tool.description,
    source: "plugin",
    pluginId: MCP_TOOLS_ENTRY,
  }));
  return [{ id: MCP_TOOLS_ENTRY, label: "MCP servers", source: "plugin", pluginId: MCP_TOOLS_ENTRY, tools: entries }];
}
