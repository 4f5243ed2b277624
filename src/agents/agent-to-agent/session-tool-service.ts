import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import type { SessionSearchIndex } from "../../sessions/search/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { SessionToolCaller, SessionToolHost } from "../tools/index.js";
import type { ToolResult } from "../types.js";
import type { AgentConversations } from "../conversation-port.js";
import type { SpawnRefusal } from "../subagents/spawn-checks.js";
import { runSubagentsAction } from "../subagents/subagent-control.js";
import type { SubagentService } from "../subagents/subagent-service.js";
import { AgentToAgent } from "./agent-to-agent.js";
import { searchSessions } from "./session-search-view.js";
import { listSessions, sessionHistory, sessionStatus, type SessionViewDeps } from "./session-views.js";

export interface SessionToolServiceDeps {
  config: () => OpenClawConfig;
  store: SessionStore;
  conversations: AgentConversations;
  subagents: SubagentService;
  logger: Logger;
  /** What sessions_search asks. */
  searchIndex: SessionSearchIndex;
  /** Masks secrets in transcript text the session tools return (sessions_history, sessions_list's last messages, sessions_search's snippets). */
  redact: (text: string) => string;
}

/**
 * The gateway's `SessionToolHost`: what the session tools do, turned into tool results
 * (structured errors with a way forward, JSON the model reads reliably).
 */
export class SessionToolService implements SessionToolHost {
  readonly agentToAgent: AgentToAgent;
  private readonly views: SessionViewDeps;

  constructor(private readonly deps: SessionToolServiceDeps) {
    const registry = deps.subagents.registry;
    const spawnedBy = (caller: string, target: string) => registry.descendantsOf(caller).some((r) => r.childSessionKey === target);
    this.views = { config: deps.config, store: deps.store, conversations: deps.conversations, registry, spawnedBy, redact: deps.redact };
    this.agentToAgent = new AgentToAgent({
      config: deps.config,
      store: deps.store,
      conversations: deps.conversations,
      visibility: spawnedBy,
      isOwnChild: (caller, target) => registry.forChild(target)?.requesterSessionKey === caller,
      logger: deps.logger,
    });
  }

  async spawn(caller: SessionToolCaller, args: Parameters<SessionToolHost["spawn"]>[1]): Promise<ToolResult> {
    const outcome = await this.deps.subagents.spawn(caller, args);
    if ("code" in outcome) return refusal(outcome);
    return json({
      ...outcome,
      note: "The sub-agent runs in the background. Its result arrives as a message in this session when it finishes — do not poll, sleep or list to wait for it.",
    });
  }

  async subagents(caller: SessionToolCaller, args: Parameters<SessionToolHost["subagents"]>[1]): Promise<ToolResult> {
    const result = await runSubagentsAction(this.deps.subagents, caller.sessionKey, args);
    return result.ok ? toolText(result.text, result.details) : refusal(result);
  }

  async send(caller: SessionToolCaller, args: Parameters<SessionToolHost["send"]>[1], signal: AbortSignal): Promise<ToolResult> {
    const outcome = await this.agentToAgent.send(caller, args, signal);
    if (outcome.status === "refused") return refusal(outcome);
    return json(outcome);
  }

  list(caller: SessionToolCaller, args: Parameters<SessionToolHost["list"]>[1]): ToolResult {
    return json(listSessions(this.views, caller, args));
  }

  history(caller: SessionToolCaller, args: Parameters<SessionToolHost["history"]>[1]): ToolResult {
    const result = sessionHistory(this.views, caller, args);
    return "code" in result ? refusal(result as SpawnRefusal) : json(result);
  }

  async search(caller: SessionToolCaller, args: Parameters<SessionToolHost["search"]>[1]): Promise<ToolResult> {
    const result = await searchSessions({ ...this.views, index: this.deps.searchIndex }, caller, args);
    return "code" in result ? refusal(result as SpawnRefusal) : json(result);
  }

  agents(caller: SessionToolCaller): ToolResult {
    return json(this.deps.subagents.spawnTargets(caller));
  }

  yieldTurn(caller: SessionToolCaller, args: Parameters<SessionToolHost["yieldTurn"]>[1]): ToolResult {
    const awaited = this.deps.subagents.awaitedChildren(caller.sessionKey);
    if (awaited.length === 0) return toolError(TOOL_ERRORS.nothingToWaitFor());
    return json({
      status: "yielded",
      waitingFor: awaited.map((r) => ({ childSessionKey: r.childSessionKey, ...(r.label ? { label: r.label } : {}) })),
      ...(args.message?.trim() ? { message: args.message.trim() } : {}),
      note: "This turn ends here. Each result arrives as a message in this session and starts your next turn.",
    });
  }

  status(caller: SessionToolCaller, args: Parameters<SessionToolHost["status"]>[1]): ToolResult {
    const result = sessionStatus(this.views, caller, args);
    return typeof result === "string" ? toolText(result) : refusal(result);
  }
}

function json(value: object): ToolResult {
  return toolText(JSON.stringify(value, null, 2), value);
}

function refusal(r: SpawnRefusal): ToolResult {
  return toolError(r);
}
