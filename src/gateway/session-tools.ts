import type { ConversationPort } from "../agents/conversation-port.js";
import { resolveEffectiveTools, type EffectiveTools } from "../agents/policy/index.js";
import { createAvailableTools, offeredXaiTools, type WebSearchStyle, type XaiToolsSetup } from "../agents/tools/index.js";
import { mayAskUser } from "../agents/questions/may-ask-user.js";
import { offersProgressCard } from "../agents/progress-card-offer.js";
import type { AgentTool, McpToolHost } from "../agents/types.js";
import { execToolOptionsFromConfig } from "../agents/exec-tool-options.js";
import { webFetchOptionsFromConfig } from "../agents/web-fetch-options.js";
import type { OpenClawConfig } from "../config/index.js";
import { resolveModel } from "../models/index.js";
import { viewImageMode } from "../agents/media/image-describer.js";
import type { SessionStore } from "../sessions/store/index.js";
import { sessionModelRef, splitModelRef } from "./methods/session-row.js";

/** Which optional tool families this gateway can offer right now. */
export interface ToolAvailability {
  /** A web search provider is set up (tools.web.search), and its kind: a list of pages or a written answer. */
  webSearch?: WebSearchStyle;
  /** xAI's tools this config has (x_search, code_execution), each offered to the models it reaches (offeredXaiTools). */
  xai: XaiToolsSetup;
  memory: boolean;
  messenger: boolean;
  cron: boolean;
  /** The gateway tool's config reader is there. */
  gateway: boolean;
  /** Images can be described for a model that cannot see them (view_image's describe mode), when an image model is set up. */
  imageDescriber: boolean;
  /** An image model can run (image_generate). */
  imageGenerate: boolean;
  /** A speech provider can run (tts). */
  tts: boolean;
  /** The gateway has a managed browser (the browser tool). */
  browser: boolean;
  /** The gateway's questions are there for ask_user (offered only where the session may ask: mayAskUser). */
  askUser: boolean;
  /** The gateway keeps progress cards (progress_card, offered only where offersProgressCard says). */
  progressCards: boolean;
  /** The gateway keeps session goals (get_goal, create_goal, update_goal). */
  goals: boolean;
}

export interface SessionToolsInput {
  config: OpenClawConfig;
  conversations: Pick<ConversationPort, "resolveSessionKey">;
  sessions: Pick<SessionStore, "get">;
  availability: ToolAvailability;
  sessionKey: string;
  /** The agent asked about; the session key's otherwise. */
  agentId: string;
  /** An operator client is the owner; a chat sender only when `commands.ownerAllowFrom` says so. */
  senderIsOwner: boolean;
  /** The chat channel asking (`/tools` in a chat); else the channel the session last talked in. */
  channel?: string;
  /** Whether the session tools are offered (default: yes; `/tools/invoke` offers them only when the gateway has them). */
  offerSessionTools?: boolean;
  /** The MCP servers' tools (`configuredMcpTools`), after the built-in ones. */
  mcpTools?: readonly AgentTool[];
}

/** The tools of the configured MCP servers, starting those not started yet; undefined when none is configured. */
export async function configuredMcpTools(mcp: McpToolHost | undefined, config: OpenClawConfig): Promise<readonly AgentTool[] | undefined> {
  return mcp?.hasServers(config) ? mcp.tools(config) : undefined;
}

/**
 * The tools a session's next turn gets, after the tool policy, as `tools.effective`, `/tools` and
 * `/tools/invoke` see them: for the session's model and channel and for the one asking (a sender
 * who is not the owner loses the owner-only tools), built with the turn's own tool options.
 */
export function sessionTools(input: SessionToolsInput): { tools: AgentTool[]; policy: EffectiveTools } {
  const { config } = input;
  const resolved = input.conversations.resolveSessionKey(input.sessionKey, input.agentId);
  const entry = input.sessions.get(resolved.sessionKey);
  const ref = sessionModelRef({ agentId: input.agentId, modelOverride: entry?.modelOverride }, config);
  const model = splitModelRef(ref, config);
  const sessionModel = ref ? resolveModel(ref, config, process.env) : undefined;
  const tools = [
    ...createAvailableTools({
      ...input.availability,
      ...offeredXaiTools(input.availability.xai, model?.provider),
      askUser: input.availability.askUser && mayAskUser(resolved.sessionKey, entry?.spawnDepth),
      progressCard: offersProgressCard(config, resolved.sessionKey, entry?.spawnDepth, input.availability.progressCards),
      sessionTools: input.offerSessionTools ?? true,
      exec: execToolOptionsFromConfig(config),
      webFetch: webFetchOptionsFromConfig(config),
      viewImage: viewImageMode(sessionModel?.ok === true && sessionModel.model.input.includes("image"), config, input.availability.imageDescriber),
    }),
    ...(input.mcpTools ?? []),
  ];
  const policy = resolveEffectiveTools({
    config,
    agentId: input.agentId,
    provider: model?.provider,
    modelId: model?.id,
    channel: input.channel ?? entry?.lastChannel ?? entry?.channel,
    senderIsOwner: input.senderIsOwner,
    spawnDepth: entry?.spawnDepth,
    ownerOnlyTools: tools.filter((t) => t.ownerOnly).map((t) => t.name),
    available: tools.map((t) => t.name),
  });
  const allowed = new Set(policy.allowed);
  return { tools: tools.filter((t) => allowed.has(t.name)), policy };
}
