import os from "node:os";
import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../config/index.js";
import { createStreamModel, resolveContextWindow } from "../models/index.js";
import { sharedModelFailover, type ModelFailover } from "../models/failover/index.js";
import { defaultAgentId, resolveAgentConfig } from "./agent-config.js";
import { planTurnModels } from "./turn-models.js";
import { reasoningLevelFor, reasoningOf } from "./reasoning-visibility.js";
import { toolSummaryText } from "./tool-summaries.js";
import { toolProgressDetailFor } from "./tool-labels.js";
import { execGateFromConfig } from "./approvals/exec-gate-from-config.js";
import type { ExecApprovalBroker } from "./approvals/approval-broker.js";
import { type ElevatedGrant, turnElevatedLevel } from "./sandbox/elevated-level.js";
import { prepareTurnSandbox } from "./sandbox/turn-sandbox.js";
import { resolveWorkspaceDir } from "./context/workspace.js";
import { cachedBootstrap, cachedSkills, ensureWorkspaceOnce } from "./turn-context-cache.js";
import { skillExecEnv } from "./skills/skill-env.js";
import { effectiveToolsFor, keptSkillsFor, turnToolsFor } from "./turn-plan-cache.js";
import type { BootstrapFile } from "./context/bootstrap-files.js";
import { buildSystemPrompt, type PromptMode } from "./context/system-prompt.js";
import { createLoopDetector, loopDetectionFromConfig } from "./loop-detection/index.js";
import { cachedImageGenerationSetup, cachedWebSearchSetup, cachedXaiToolsSetup, createAvailableTools, offeredXaiTools, webSearchStyle } from "./tools/index.js";
import { cachedSpeechSetup } from "./speech/index.js";
import { offersProgressCard } from "./progress-card-offer.js";
import { mayAskUser } from "./questions/may-ask-user.js";
import { execToolOptionsFromConfig } from "./exec-tool-options.js";
import { webFetchOptionsFromConfig } from "./web-fetch-options.js";
import { createToolResultShaper } from "./tool-result-shaper.js";
import { evaluateContextWindow, liveToolResultMaxChars } from "./context-window-guard.js";
import { overflowRecovery, withOverflowAdvice } from "./compaction/overflow-recovery.js";
import { runAgentLoop, type AgentLoopInput } from "./runner/agent-loop.js";
import { requiredClientToolLine, withClientTools, type ClientToolSpec } from "./client-tools.js";
import { dailyNotesForNewSession, type StartupNotesLimits } from "../memory/daily-notes.js";
import { startupNotesFor, type StartupReason } from "./context/startup-context.js";
import { traceEmitter } from "./trace-events.js";
import type { AgentEvent, AgentTool, HeartbeatReport, HeartbeatReportSlot, RunResult, StreamModelFn, ToolHooks, ToolServices, HistoryMessage } from "./types.js";
import { LRUCache } from "lru-cache";
import type { ImageBlock, UserMessage } from "../models/messages.js";
import { userTimeZone } from "./context/user-time-zone.js";
import { memoryGetLimit } from "./context/context-limits.js";
import { resolveRepoRoot } from "./context/repo-root.js";
import { finalStaysPrivate, MESSAGE_TOOL_DELIVERY_HINT, type ReplyVia } from "./reply-via.js";
import type { LocatedToolRule } from "./policy/types.js";
import { viewImageMode } from "./media/image-describer.js";
import { DEFAULT_IMAGE_MAX_DIMENSION_PX, shrinkImages, shrinkMessageImages } from "./media/image-shrink.js";

export interface EmbeddedTurnInput {
  config: OpenClawConfig;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  message: string;
  /**
   * The session's active-goal line (activeGoalContextLine): the model gets it before the message
   * in this turn's prompt only; the transcript keeps the message as it was sent.
   */
  goalContext?: string;
  /** Images sent with the message: image blocks after its text when the model accepts images (`input` lists "image"). */
  images?: readonly ImageBlock[];
  agentId?: string;
  runId?: string;
  /** Prior messages, or a loader given the token budget left for history once the model is known. */
  history?: readonly HistoryMessage[] | ((tokenBudget: number, contextWindow: number) => readonly HistoryMessage[]);
  steering?: AgentLoopInput["steering"];
  onAppend?: AgentLoopInput["onAppend"];
  channel?: string;
  senderIsOwner: boolean;
  promptMode?: PromptMode;
  extraSystemPrompt?: string;
  /** How the turn is stopped, one of the two: a signal to follow, or the caller's own controller (runAgentLoop's `signal` / `controller`). */
  signal?: AbortSignal;
  controller?: AbortController;
  emit?: (event: AgentEvent) => void;
  /** Tool services that outlive a run (process registry); a fresh set per turn when absent. */
  services?: ToolServices;
  /** Present inside the gateway: exec approvals reach operators. Absent: an "ask" is denied. */
  approvals?: ExecApprovalBroker;
  streamModel?: StreamModelFn;
  /** The session this turn belongs to; the session tools act on its behalf. */
  sessionKey?: string;
  /** A `provider/model` that replaces the agent's model (a sub-agent spawned with `model`); an unknown one falls back to the agent's. */
  modelOverride?: string;
  /** Models tried after `modelOverride` fails, in place of the agent's own fallbacks (a scheduled job's `fallbacks`). */
  modelFallbacks?: string[];
  /** The session's own model choice (`/model`, `sessions.patch`): strict, never swapped for a fallback. */
  sessionModel?: string;
  /** The session's thinking level; `agents.defaults.thinkingDefault` when absent. */
  thinkingLevel?: string;
  /** `on` / `full`: the result carries a summary of the run's tool calls for chats (`/verbose`); `agents.defaults.verboseDefault` when absent. */
  verboseLevel?: string;
  /** The session's `/reasoning` level; with `on` the result carries the run's reasoning (reasoningLevelFor has the defaults). */
  reasoningLevel?: string;
  /** The sender passed `tools.elevated`'s gates (chat messages only): a sandboxed run's `exec` may run on the host. */
  elevated?: ElevatedGrant;
  /** The session's `/elevated` level; `agents.defaults.elevatedDefault` when absent. Used only with `elevated`. */
  sessionElevatedLevel?: string;
  /** Failover state shared by the process's turns; the process-wide one for the state dir when absent. */
  failover?: ModelFailover;
  /** 0 or absent for a main session; 1+ for sub-agents, which get the sub-agent tool limits. */
  spawnDepth?: number;
  /** Replaces `agents.defaults.timeoutSeconds` for this turn (a sub-agent's `runTimeoutSeconds`; 0 = none). */
  timeoutSeconds?: number;
  /**
   * The provider said the request overflowed its window: compact the session now. True when
   * the history got smaller; the turn then retries once with the history loaded again.
   */
  onContextOverflow?: () => Promise<boolean>;
  /** Conditions worth a log line that do not stop the turn (a small context window). */
  onWarning?: (message: string) => void;
  /** The first turn after `/new` or `/reset`: with memory on, the recent daily notes join the prompt as `startupContext` says. */
  startedBy?: StartupReason;
  /** Leave the workspace bootstrap files out of this turn's prompt (a scheduled job's or heartbeat's `lightContext`). */
  lightContext?: boolean;
  /**
   * Sees (and may replace) the bootstrap files before the prompt is built: internal hooks'
   * `agent:bootstrap`. Resolves to the files to use, or undefined to keep them.
   */
  bootstrapHook?: (view: {
    agentId: string;
    sessionKey?: string;
    workspaceDir: string;
    files: { name: string; content: string }[];
  }) => Promise<{ name: string; content: string }[] | undefined>;
  /** This run may use only these tools (names or `group:*`), after every other policy layer (a scheduled job's `tools`). */
  runToolAllow?: { source: string; entries: string[] };
  /** This run may not use these tools (an `agent` request's `disableMessageTool`), after every other policy layer. */
  runToolDeny?: { source: string; entries: string[] };
  /**
   * The turn answers its chat through the `message` tool and its final text stays private. A
   * sender who is not the owner keeps that tool for this conversation only.
   */
  replyVia?: ReplyVia;
  /** The tool rule of the chat the message came from, and the one for its sender (chat messages only). */
  chatTools?: LocatedToolRule;
  senderTools?: LocatedToolRule;
  /** The chat's `skills`: only these of the agent's skills are offered in this turn. */
  chatSkills?: readonly string[];
  /**
   * Model params for this turn only, over every configured layer (an HTTP API request's
   * `temperature`, `top_p`, `seed`, `stop`, `max_tokens`, …): each model takes the ones its API
   * has, as it takes `params` (docs/models.md).
   */
  modelParams?: Record<string, unknown>;
  /**
   * Tools the turn's caller runs itself (an HTTP API request's `tools`): offered to the model
   * beside the agent's own (replacing one of the same name); a call of one ends the run with
   * stopReason `toolUse` and `clientToolCalls` (client-tools.ts).
   */
  clientTools?: readonly ClientToolSpec[];
  /** The caller requires a call of one of them (`required`), or of the named one, which is then the only one offered. */
  clientToolChoice?: "required" | { name: string };
  /** A heartbeat turn: heartbeat_respond is offered, and its accepted report is the result's `heartbeatReport`. */
  heartbeat?: true;
}

/** What a session may change about its own turns (sub-agents: prompt mode, context block, model, limits). */
export type TurnOverrides = Partial<
  Pick<
    EmbeddedTurnInput,
    | "promptMode"
    | "extraSystemPrompt"
    | "modelOverride"
    | "sessionModel"
    | "thinkingLevel"
    | "verboseLevel"
    | "reasoningLevel"
    | "spawnDepth"
    | "timeoutSeconds"
    | "senderIsOwner"
    | "lightContext"
    | "modelFallbacks"
    | "runToolAllow"
    | "runToolDeny"
  >
>;

export interface EmbeddedTurnResult extends RunResult {
  agentId: string;
  /** The model that answered (a fallback when the selected one failed). */
  model?: string;
  /** `↪️ Model Fallback: …` when the session's fallback state changed this turn (DMs show it). */
  modelNotice?: string;
  /** The run's tool calls as chat lines, when the session is verbose and tools ran. */
  toolSummary?: string;
  /** The run's reasoning, when the turn's reasoning level is `on` and the model showed some. */
  reasoning?: string;
  /** The model's resolved context window (tokens). */
  contextWindow?: number;
  workspaceDir?: string;
  systemPromptChars?: number;
  /** The final text is not a reply: the run answered through the `message` tool (`replyVia`). */
  privateFinal?: true;
  /** A heartbeat turn's accepted heartbeat_respond report: it decides over the final text. */
  heartbeatReport?: HeartbeatReport;
}

/**
 * One agent turn in this process: resolve the agent and its model, prepare the workspace,
 * assemble the prompt and the allowed tools, then run the loop. Misconfiguration ends the turn
 * with a message saying what to set — never a stack trace.
 */
export async function runEmbeddedTurn(input: EmbeddedTurnInput): Promise<EmbeddedTurnResult> {
  const runId = input.runId ?? randomUUID();
  const { config, env } = input;
  const agentId = (input.agentId ?? defaultAgentId(config)).toLowerCase();
  const agent = resolveAgentConfig(config, agentId);
  if (!agent && agentId !== defaultAgentId(config)) return failedTurn(runId, agentId, `Unknown agent "${agentId}". Define it under agents.entries (or agents.list).`);

  const failover = input.failover ?? sharedModelFailover(input.stateDir);
  const planned = planTurnModels({
    config,
    env,
    agent,
    store: failover.store(agentId),
    sessionModel: input.sessionModel,
    modelOverride: input.modelOverride,
    modelFallbacks: input.modelFallbacks,
  });
  if (!planned.ok) return failedTurn(runId, agentId, planned.message);
  const { chain, model } = planned;
  const guard = evaluateContextWindow(model, resolveContextWindow(config, model.provider, model.id), config);
  if (guard.action === "block") return failedTurn(runId, agentId, guard.message);
  if (guard.action === "warn") input.onWarning?.(guard.message);

  const agentWorkspaceDir = resolveWorkspaceDir(config, agentId, input.stateDir, env);
  await ensureWorkspaceOnce(agentWorkspaceDir);
  const sandboxed = prepareTurnSandbox({ config, agentId, sessionKey: input.sessionKey, workspaceDir: agentWorkspaceDir, stateDir: input.stateDir, env });
  const workspaceDir = sandboxed.workspaceDir;
  const defaults = config.agents.defaults;
  let bootstrap =
    defaults.skipBootstrap || input.lightContext
      ? { files: [], warnings: [] }
      : await cachedBootstrap(workspaceDir, { maxCharsPerFile: defaults.bootstrapMaxChars, maxTotalChars: defaults.bootstrapTotalMaxChars });
  if (input.bootstrapHook && !defaults.skipBootstrap && !input.lightContext) {
    const files = await input.bootstrapHook({
      agentId,
      ...(input.sessionKey ? { sessionKey: input.sessionKey } : {}),
      workspaceDir,
      files: bootstrap.files.map((f) => ({ name: f.name, content: f.content })),
    });
    if (files) bootstrap = { files: hookBootstrapFiles(files, defaults.bootstrapMaxChars), warnings: bootstrap.warnings };
  }

  const discovered = await cachedSkills(workspaceDir, input.stateDir, env, config.skills?.load);
  const agentSkills = keptSkillsFor(discovered.skills, config, agentId, env);
  const skills = input.chatSkills ? agentSkills.filter((skill) => input.chatSkills!.includes(skill.name)) : agentSkills;
  // What the prompt leaves out for a reason the user can fix (a skipped skill, a cut file) is said, naming the file.
  for (const warning of bootstrap.warnings) input.onWarning?.(`workspace file ${warning}`);
  for (const warning of discovered.warnings) input.onWarning?.(`skill ${warning}`);

  const memory = input.services?.memory;
  const memoryOn = memory?.enabled() === true;
  const webSearch = cachedWebSearchSetup(config, env).host;
  const imageGeneration = cachedImageGenerationSetup(config, env).host;
  const xai = cachedXaiToolsSetup(config, env);
  const xaiOffered = offeredXaiTools(xai, model.provider);
  const speech = cachedSpeechSetup(config, env).host;
  const mcp = input.services?.mcp;
  const mcpTools = mcp?.hasServers(config) ? await mcp.tools(config) : undefined;
  const allTools = withMcpTools(
    availableTools({
      exec: execToolOptionsFromConfig(config),
      webSearch: webSearchStyle(webSearch),
      xSearch: xaiOffered.xSearch,
      codeExecution: xaiOffered.codeExecution,
      webFetch: webFetchOptionsFromConfig(config),
      memory: memoryOn,
      sessionTools: Boolean(input.sessionKey && input.services?.sessionTools),
      messenger: Boolean(input.services?.channelMessenger),
      cron: Boolean(input.services?.cron),
      gateway: Boolean(input.services?.gateway),
      viewImage: viewImageMode(model.input.includes("image"), config, Boolean(input.services?.imageDescriber)),
      imageGenerate: imageGeneration !== undefined,
      tts: speech !== undefined,
      browser: Boolean(input.services?.browser),
      askUser: Boolean(input.services?.questions) && mayAskUser(input.sessionKey, input.spawnDepth),
      heartbeatRespond: input.heartbeat === true,
      goals: Boolean(input.sessionKey && input.services?.goals?.keeps(input.sessionKey)),
      progressCard: offersProgressCard(config, input.sessionKey, input.spawnDepth, Boolean(input.sessionKey && input.services?.progressCards?.keeps(input.sessionKey))),
    }),
    mcpTools,
  );
  const policy = effectiveToolsFor(config, allTools, {
    agentId,
    provider: model.provider,
    modelId: model.id,
    channel: input.channel,
    senderIsOwner: input.senderIsOwner,
    spawnDepth: input.spawnDepth,
    sandboxed: sandboxed.decision.sandboxed,
    ...(input.runToolAllow ? { runAllow: input.runToolAllow } : {}),
    ...(input.runToolDeny ? { runDeny: input.runToolDeny } : {}),
    ...(input.replyVia ? { repliesThroughMessageTool: true } : {}),
    ...(input.chatTools ? { chatTools: input.chatTools } : {}),
    ...(input.senderTools ? { senderTools: input.senderTools } : {}),
  });
  const turnTools = turnToolsFor(policy, allTools, sandboxed.withheld?.tools, model, firstSentence);
  const clientTools = offeredClientTools(input.clientTools, input.clientToolChoice);
  const { tools, specs: toolSpecs } = clientTools.length > 0 ? withClientTools(turnTools.tools, turnTools.specs, clientTools, model) : turnTools;
  const toolSummaries = turnTools.summaries;
  const privateFinal = finalStaysPrivate(
    input.replyVia,
    tools.some((t) => t.name === "message"),
  );
  // Session start for memory: the index opens and syncs in the background; the turn never waits.
  const memoryToolsAvailable = tools.some((t) => t.name === "memory_search");
  if (memoryOn && memoryToolsAvailable) memory!.prepare(agentId);

  const systemPrompt = buildSystemPrompt({
    mode: input.promptMode ?? "full",
    agentId,
    identityName: agent?.identity?.name,
    tools: toolSummaries,
    skills,
    memoryToolsAvailable,
    workspaceDir,
    bootstrap,
    runtime: {
      agentId,
      host: HOST.name,
      repo: resolveRepoRoot(defaults.repoRoot, agentWorkspaceDir),
      os: HOST.os,
      node: process.version,
      model: model.ref,
      channel: input.channel,
    },
    now: new Date(),
    timeZone: userTimeZone(config),
    extraSystemPrompt: await withDailyNotes(
      [input.extraSystemPrompt, privateFinal ? MESSAGE_TOOL_DELIVERY_HINT : undefined, input.clientToolChoice ? requiredClientToolLine(clientTools.map((t) => t.name)) : undefined]
        .filter(Boolean)
        .join("\n\n") || undefined,
      memoryOn ? startupNotesFor(config, input.startedBy) : undefined,
      workspaceDir,
    ),
  });

  const elevated = turnElevatedLevel(input.elevated, input.sessionElevatedLevel, defaults.elevatedDefault);
  const trace = traceEmitter(input.emit);
  const maxImageSidePx = defaults.imageMaxDimensionPx ?? DEFAULT_IMAGE_MAX_DIMENSION_PX;
  const hooks: ToolHooks[] = [createToolResultShaper(liveToolResultMaxChars(model.contextWindow), maxImageSidePx, input.onWarning)];
  const loop = loopDetectionFromConfig(config, agentId);
  if (loop.enabled) hooks.push(trace.observeDecisions(createLoopDetector(loop.options)));

  const skillEnv = skillExecEnv(skills, config.skills?.entries, env);
  const heartbeatReport: HeartbeatReportSlot | undefined = input.heartbeat ? {} : undefined;
  const services: ToolServices = {
    ...(input.services ?? {}),
    ...(heartbeatReport ? { heartbeatReport } : {}),
    execApprovals: execGateFromConfig(config, input.approvals, input.emit ? trace.approval : undefined),
    ...(skillEnv ? { skillEnv } : {}),
    ...(webSearch ? { webSearch } : {}),
    ...(xaiOffered.xSearch || xaiOffered.codeExecution ? { xai } : {}),
    ...(imageGeneration ? { imageGeneration } : {}),
    ...(speech ? { speech } : {}),
  };

  const thinking = input.thinkingLevel ?? defaults.thinkingDefault;
  const modelCalls = failover.beginTurn({
    chain,
    config,
    env,
    agentId,
    sessionKey: input.sessionKey,
    stream: input.streamModel ?? createStreamModel(),
    ...(thinking ? { thinking } : {}),
    ...(agent?.params || agent?.models ? { agentParams: { ...(agent.params ? { params: agent.params } : {}), ...(agent.models ? { models: agent.models } : {}) } } : {}),
    ...(input.modelParams ? { turnParams: input.modelParams } : {}),
    ...(input.emit ? { onAttempt: trace.attempt } : {}),
  });
  if (input.emit)
    trace.context(
      systemPrompt.text,
      systemPrompt.version,
      model.ref,
      tools.map((t) => t.name),
    );
  // The message's images as the model gets them: scaled to `imageMaxDimensionPx` (none for a text-only model).
  const promptImages =
    model.input.includes("image") && input.images?.length
      ? await shrinkImages(input.images, maxImageSidePx, (why) => input.onWarning?.(`an image of the message went to the model at full size: ${why}`))
      : undefined;
  const budget = historyBudget(model.contextWindow, model.maxTokens, systemPrompt.text.length);
  const loadHistory = input.history;
  const takeHistory = (): readonly HistoryMessage[] => {
    const history = typeof loadHistory === "function" ? loadHistory(budget, model.contextWindow) : (loadHistory ?? []);
    if (input.emit) trace.history(history);
    return history;
  };
  // Whatever the run started in its sandbox ends with it (background jobs included).
  const result = await runAgentLoop({
    runId,
    model,
    systemPrompt: systemPrompt.text,
    history: takeHistory(),
    ...(typeof loadHistory === "function" && input.onContextOverflow ? { recoverOverflow: overflowRecovery(input.onContextOverflow, takeHistory) } : {}),
    steering: input.steering && {
      pending: () => input.steering!.pending(),
      // A message steered into the run brings its images scaled as the run's own message does.
      take: async () =>
        shrinkMessageImages(await input.steering!.take(), maxImageSidePx, (why) => input.onWarning?.(`an image of a steered message went to the model at full size: ${why}`)),
    },
    onAppend: input.onAppend,
    prompt: { role: "user", content: promptContent(input.goalContext ? `${input.goalContext}\n\n${input.message}` : input.message, promptImages), timestamp: Date.now() },
    tools,
    toolSpecs,
    toolContext: {
      agentId,
      workspaceDir,
      senderIsOwner: input.senderIsOwner,
      services,
      runId,
      ...(input.sessionKey ? { sessionKey: input.sessionKey } : {}),
      ...(input.channel ? { channel: input.channel } : {}),
      ...(sandboxed.sandbox ? { sandbox: sandboxed.sandbox } : {}),
      ...(elevated !== "off" && sandboxed.sandbox ? { elevated } : {}),
      ...memoryGetLimit(config, agent),
    },
    streamModel: modelCalls.stream,
    hooks,
    ...(input.controller ? { controller: input.controller } : { signal: input.signal }),
    timeoutMs: (input.timeoutSeconds ?? defaults.timeoutSeconds ?? 0) * 1000,
    emit: input.emit ?? (() => {}),
  }).finally(() => sandboxed.sandbox?.endTurn());
  const outcome = failover.endTurn(modelCalls, chain, input.sessionKey);
  const toolSummary = toolSummaryText(result.messages, input.verboseLevel ?? defaults.verboseDefault, toolProgressDetailFor(config, agentId));
  const reasoning = reasoningLevelFor(config, agentId, input.reasoningLevel, input.senderIsOwner) === "on" ? reasoningOf(result.messages) : "";
  return {
    ...withOverflowAdvice(result),
    agentId,
    model: outcome.modelRef,
    contextWindow: model.contextWindow,
    workspaceDir,
    systemPromptChars: systemPrompt.text.length,
    ...(outcome.notice ? { modelNotice: outcome.notice } : {}),
    ...(toolSummary ? { toolSummary } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...(privateFinal ? { privateFinal: true as const } : {}),
    ...(heartbeatReport?.accepted ? { heartbeatReport: heartbeatReport.accepted } : {}),
  };
}

/** The client tools the model is offered: all of them, or only the one `tool_choice` names. */
function offeredClientTools(tools: readonly ClientToolSpec[] | undefined, choice: EmbeddedTurnInput["clientToolChoice"]): readonly ClientToolSpec[] {
  if (!tools) return [];
  return typeof choice === "object" ? tools.filter((tool) => tool.name === choice.name) : tools;
}

/** The prompt's content: its text, followed by the images the model is to see. */
function promptContent(text: string, images: readonly ImageBlock[] | undefined): UserMessage["content"] {
  return images?.length ? [{ type: "text", text }, ...images] : text;
}

/** Prepare an agent's workspace and read its bootstrap files and skills into the turn cache. */
export async function warmUpAgentContext(config: OpenClawConfig, agentId: string, stateDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const workspaceDir = resolveWorkspaceDir(config, agentId, stateDir, env);
  await ensureWorkspaceOnce(workspaceDir);
  const defaults = config.agents.defaults;
  await Promise.all([
    defaults.skipBootstrap ? undefined : cachedBootstrap(workspaceDir, { maxCharsPerFile: defaults.bootstrapMaxChars, maxTotalChars: defaults.bootstrapTotalMaxChars }),
    cachedSkills(workspaceDir, stateDir, env, config.skills?.load),
  ]);
}

async function withDailyNotes(extra: string | undefined, limits: StartupNotesLimits | undefined, workspaceDir: string): Promise<string | undefined> {
  const notes = limits ? await dailyNotesForNewSession(workspaceDir, limits) : undefined;
  return notes ? (extra ? `${extra}\n\n${notes}` : notes) : extra;
}

/** Facts about this machine for the runtime line; constant for the process. */
const HOST = {
  name: os.hostname(),
  os: `${os.platform()} ${os.release()}`,
};

function failedTurn(runId: string, agentId: string, message: string): EmbeddedTurnResult {
  return {
    runId,
    agentId,
    payloads: [{ text: message }],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    durationMs: 0,
    stopReason: "error",
    error: { kind: "config", message },
    messages: [],
  };
}

/**
 * Tokens left for history: the context window minus the reply's reserve, the system prompt
 * (~4 chars a token) and room for tool schemas and the new message.
 */
function historyBudget(contextWindow: number, maxTokens: number, systemPromptChars: number): number {
  return Math.max(1_000, Math.floor(contextWindow - maxTokens - systemPromptChars / 4 - 4_000));
}

/**
 * The tool objects for one combination of options, built once: a tool keeps no state of its own
 * (everything a call needs arrives in its context), so every turn with the same options can share
 * the same objects instead of building twenty of them again.
 */
const toolSets = new Map<string, readonly AgentTool[]>();

function availableTools(options: Parameters<typeof createAvailableTools>[0]): readonly AgentTool[] {
  const key = JSON.stringify(options);
  let tools = toolSets.get(key);
  if (!tools) toolSets.set(key, (tools = Object.freeze(createAvailableTools(options))));
  return tools;
}

/** The built-in tools with the MCP servers' after them: one array per pair, so the policy cache keys on a stable set. */
const withMcp = new WeakMap<readonly AgentTool[], WeakMap<readonly AgentTool[], readonly AgentTool[]>>();

function withMcpTools(tools: readonly AgentTool[], mcpTools: readonly AgentTool[] | undefined): readonly AgentTool[] {
  if (!mcpTools || mcpTools.length === 0) return tools;
  let byMcp = withMcp.get(tools);
  if (!byMcp) withMcp.set(tools, (byMcp = new WeakMap()));
  let combined = byMcp.get(mcpTools);
  if (!combined) byMcp.set(mcpTools, (combined = Object.freeze([...tools, ...mcpTools])));
  return combined;
}

/** Tool descriptions are a small fixed set; their summaries are worked out once each. */
const summaries = new LRUCache<string, string>({ max: 256 });

function firstSentence(text: string): string {
  let summary = summaries.get(text);
  if (summary === undefined) {
    summary = computeFirstSentence(text);
    summaries.set(text, summary);
  }
  return summary;
}

function computeFirstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (match ? match[1]! : text.trim()).replace(/\s+/g, " ");
}

/** Files a hook handed back, each cut to the per-file limit like the ones read from the workspace. */
function hookBootstrapFiles(files: { name: string; content: string }[], maxCharsPerFile: number): BootstrapFile[] {
  return files.map((f) => ({ name: f.name, content: f.content.slice(0, maxCharsPerFile), truncated: f.content.length > maxCharsPerFile, originalChars: f.content.length }));
}
