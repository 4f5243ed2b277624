import type { ConversationPort } from "../../agents/conversation-port.js";
import { argumentProblem } from "../../agents/tool-arguments.js";
import { execGateFromConfig } from "../../agents/approvals/exec-gate-from-config.js";
import { decideSandbox } from "../../agents/sandbox/sandbox-settings.js";
import { resolveWorkspaceDir } from "../../agents/context/workspace.js";
import { ensureWorkspaceOnce } from "../../agents/turn-context-cache.js";
import { cachedImageGenerationSetup, cachedWebSearchSetup, cachedXaiToolsSetup } from "../../agents/tools/index.js";
import { cachedSpeechSetup } from "../../agents/speech/index.js";
import { memoryGetLimit } from "../../agents/context/context-limits.js";
import type { ToolResult, ToolServices } from "../../agents/types.js";
import { unknownAgentRefusal } from "../../agents/known-agent.js";
import { resolveAgentConfig } from "../../agents/agent-config.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import type { SessionStore } from "../../sessions/store/index.js";
import { configuredMcpTools, sessionTools, type ToolAvailability } from "../session-tools.js";
import { invokeBlocked } from "./invoke-deny-list.js";

/** What a caller asks: OpenClaw's `/tools/invoke` body and `tools.invoke` params. */
export interface ToolInvokeRequest {
  /** The tool (`tool` is the older spelling; `name` wins when both are sent). */
  name?: string;
  tool?: string;
  /** Put into `args.action` when the tool takes an `action` and `args` has none. */
  action?: string;
  args?: Record<string, unknown>;
  /** The session the tool acts for; omitted or `main`: the agent's main session. */
  sessionKey?: string;
  agentId?: string;
}

export type ToolInvokeErrorType = "invalid_request" | "not_found" | "tool_call_blocked" | "tool_error";

export type ToolInvokeOutcome =
  | { ok: true; status: 200; toolName: string; result: ToolResult }
  | { ok: false; status: 400 | 403 | 404 | 500; toolName: string; error: { type: ToolInvokeErrorType; message: string } };

export interface ToolInvokeDeps {
  config(): OpenClawConfig;
  stateDir: string;
  conversations: Pick<ConversationPort, "resolveSessionKey">;
  sessions(): Pick<SessionStore, "get">;
  services: ToolServices;
  availability(): ToolAvailability;
  logger: Logger;
}

/**
 * One tool, called directly by an operator (`POST /tools/invoke`, `tools.invoke`), not by a
 * model: the tools a turn of that session would get (the same policy, with the caller as the
 * owner and the channel the session last talked on, or the one the caller names), less what
 * `gateway.tools` blocks; the arguments checked against the tool's schema; exec approvals as
 * configured, with nobody to ask (an `ask` is denied). A session that runs sandboxed is refused:
 * its tools run only inside a turn's sandbox.
 */
export async function invokeTool(deps: ToolInvokeDeps, request: ToolInvokeRequest, options: { signal: AbortSignal; channel?: string }): Promise<ToolInvokeOutcome> {
  const toolName = (request.name ?? request.tool ?? "").trim();
  const fail = (status: 400 | 403 | 404 | 500, type: ToolInvokeErrorType, message: string): ToolInvokeOutcome => ({ ok: false, status, toolName, error: { type, message } });
  if (!toolName) return fail(400, "invalid_request", "name (or tool) is required: the tool to invoke");
  const config = deps.config();
  const requestedAgent = request.agentId?.trim().toLowerCase() || undefined;
  const unknownAgent = unknownAgentRefusal(config, requestedAgent);
  if (unknownAgent) return fail(400, "invalid_request", unknownAgent);
  const rawKey = request.sessionKey?.trim();
  let target: { sessionKey: string; agentId: string };
  try {
    target = deps.conversations.resolveSessionKey(rawKey && rawKey !== "main" ? rawKey : undefined, requestedAgent);
  } catch (err) {
    return fail(400, "invalid_request", (err as Error).message);
  }
  if (requestedAgent && target.agentId !== requestedAgent) return fail(400, "invalid_request", `agent id "${requestedAgent}" does not match session agent "${target.agentId}"`);

  const sandbox = decideSandbox(config, target.agentId, target.sessionKey);
  if (sandbox.sandboxed) {
    return fail(403, "tool_call_blocked", `${target.sessionKey} runs sandboxed (${sandbox.reason}): its tools run only inside a turn's sandbox, not through a direct invocation`);
  }
  const mcpTools = await configuredMcpTools(deps.services.mcp, config);
  const { tools } = sessionTools({
    ...(mcpTools ? { mcpTools } : {}),
    config,
    conversations: deps.conversations,
    sessions: deps.sessions(),
    // A direct invocation is not a run: nobody would see its question or wait for the answer.
    availability: { ...deps.availability(), askUser: false },
    sessionKey: target.sessionKey,
    agentId: target.agentId,
    senderIsOwner: true,
    offerSessionTools: deps.services.sessionTools !== undefined,
    ...(options.channel ? { channel: options.channel } : {}),
  });
  const tool = tools.find((t) => t.name === toolName);
  if (!tool || invokeBlocked(toolName, config.gateway.tools)) return fail(404, "not_found", `Tool not available: ${toolName}`);

  const given = request.args ?? {};
  const takesAction = typeof (tool.parameters as { properties?: Record<string, unknown> }).properties?.action === "object";
  const args = request.action !== undefined && takesAction && given.action === undefined ? { ...given, action: request.action } : given;
  const invalid = argumentProblem(tool, args, "args");
  if (invalid) return fail(400, "invalid_request", `invalid arguments for ${toolName}: ${invalid.where}: ${invalid.problem}`);
  const workspaceDir = resolveWorkspaceDir(config, target.agentId, deps.stateDir, process.env);
  await ensureWorkspaceOnce(workspaceDir);
  const webSearch = cachedWebSearchSetup(config, process.env).host;
  const imageGeneration = cachedImageGenerationSetup(config, process.env).host;
  const xai = cachedXaiToolsSetup(config, process.env);
  const speech = cachedSpeechSetup(config, process.env).host;
  let result: ToolResult;
  try {
    result = await tool.execute(
      args as never,
      {
        agentId: target.agentId,
        workspaceDir,
        sessionKey: target.sessionKey,
        senderIsOwner: true,
        services: {
          ...deps.services,
          execApprovals: execGateFromConfig(config),
          ...(webSearch ? { webSearch } : {}),
          xai,
          ...(imageGeneration ? { imageGeneration } : {}),
          ...(speech ? { speech } : {}),
        },
        ...memoryGetLimit(config, resolveAgentConfig(config, target.agentId)),
      },
      options.signal,
    );
  } catch (err) {
    deps.logger.warn({ tool: toolName, sessionKey: target.sessionKey, err: (err as Error).message }, "a directly invoked tool failed");
    return fail(500, "tool_error", "tool execution failed");
  }
  if (result.isError) return fail(400, "tool_error", resultText(result));
  return { ok: true, status: 200, toolName, result };
}

function resultText(result: ToolResult): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n") || "the tool reported an error";
}
