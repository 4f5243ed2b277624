import path from "node:path";
import { describeStorageError } from "../infra/storage-errors.js";
import type http from "node:http";
import os from "node:os";
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import Fastify from "fastify";
import { WebSocketServer, type WebSocket } from "ws";
import type { LogFileHealth } from "../infra/log-file.js";
import { resolveModel } from "../models/resolve-model.js";
import { localModelServices } from "../models/local-model-services.js";
import { clientErrorResponse } from "./http/client-error-response.js";
import { setSecurityHeaders } from "./http/security-headers.js";
import type { Logger } from "../infra/logger.js";
import type { EarlyListener, RequestHandler } from "./listen.js";
import { GatewayConnection } from "./connection.js";
import { MethodRegistry } from "./methods/registry.js";
import { registerSystemMethods } from "./methods/system-methods.js";
import { registerDiagnosticsMethods } from "./methods/diagnostics-methods.js";
import { registerApprovalMethods } from "./methods/approval-methods.js";
import { registerExecApprovalMethods } from "./methods/exec-approval-methods.js";
import { execApprovalRequestedEvent, execApprovalResolvedEvent } from "./methods/exec-approval-shapes.js";
import { registerCatalogMethods } from "./methods/catalog-methods.js";
import { registerSkillMethods } from "./methods/skill-methods.js";
import { registerConfigMethods } from "./methods/config-methods.js";
import { registerSecretsMethods } from "./methods/secrets-methods.js";
import { registerLogMethods } from "./methods/log-methods.js";
import { registerDeviceMethods } from "./methods/device-methods.js";
import { registerNodeMethods } from "./methods/node-methods.js";
import { registerAuditMethods } from "./methods/audit-methods.js";
import { registerExecPolicyMethods } from "./methods/exec-policy-methods.js";
import { registerHookMethods } from "./methods/hook-methods.js";
import { DeviceRegistry } from "./auth/device-registry.js";
import { registerAgentMethods } from "./methods/agent-methods.js";
import { registerChatMethods } from "./methods/chat-methods.js";
import { registerChatInjectMethod } from "./methods/chat-inject-method.js";
import { registerSessionMethods } from "./methods/session-methods.js";
import { registerSessionCleanupMethods } from "./methods/session-cleanup-methods.js";
import { registerProgressCardMethods } from "./methods/progress-card-methods.js";
import { registerSessionGoalMethods } from "./methods/session-goal-methods.js";
import { ProgressCardStore } from "../sessions/progress-card/index.js";
import { GoalStore } from "../sessions/goal/index.js";
import { registerMemoryMethods } from "./methods/memory-methods.js";
import { registerDoctorMethods } from "./methods/doctor-methods.js";
import { registerModelAuthMethods } from "./methods/model-auth-methods.js";
import { registerCronMethods } from "./methods/cron-methods.js";
import { CronService } from "../cron/cron-service.js";
import type { CronClock } from "../cron/clock.js";
import { createCronChannelPort, createCronToolHost } from "./cron-wiring.js";
import { HeartbeatRunner } from "../cron/heartbeat/heartbeat-runner.js";
import { PendingSystemEvents } from "../cron/heartbeat/pending-events.js";
import { SessionSystemEvents } from "../sessions/system-events/session-system-events.js";
import { systemClock } from "../cron/clock.js";
import { registerHeartbeatMethods, wake } from "./methods/heartbeat-methods.js";
import { registerHooksRoutes } from "./http/hooks-routes.js";
import { InternalHookRunner } from "../hooks/internal/hook-runner.js";
import { resolveBundledHooksDir } from "../hooks/internal/bundled-hooks-dir.js";
import { registerTraceMethods } from "./methods/trace-methods.js";
import { registerTaskMethods } from "./methods/task-methods.js";
import { renderTaskBoard, TaskLedger } from "../tasks/index.js";
import { reactionFeedbackEnabled, TraceRecorder } from "../traces/index.js";
import { registerSessionCreateMethods } from "./methods/session-create-methods.js";
import { registerSessionReadMethods } from "./methods/session-read-methods.js";
import { registerCommandMethods } from "./methods/command-methods.js";
import { registerQuestionMethods } from "./methods/question-methods.js";
import { registerAgentFileMethods } from "./methods/agent-file-methods.js";
import { registerAgentRosterMethods } from "./methods/agent-roster-methods.js";
import { registerToolMethods } from "./methods/tool-methods.js";
import { invokeTool, type ToolInvokeOutcome, type ToolInvokeRequest } from "./tools-invoke/invoke-tool.js";
import { registerToolsInvokeRoute } from "./http/tools-invoke-route.js";
import { registerUsageMethods } from "./methods/usage-methods.js";
import { registerTtsMethods } from "./methods/tts-methods.js";
import { UsageRecords } from "../sessions/usage/usage-records.js";
import { mayAnswerInChat, notYourQuestion, type QuestionReplier } from "../agents/questions/chat-answerers.js";
import { QuestionBroker } from "../agents/questions/question-broker.js";
import { askUserHost } from "./ask-user-host.js";
import { QuestionChats } from "./question-chat.js";
import type { ToolAvailability } from "./session-tools.js";
import { createGatewayToolHost } from "./gateway-tool-host.js";
import { sessionChangedPayload, type SessionEvents } from "./session-change-events.js";
import type { ChatCommands, WaitingAnswer } from "./operator-commands.js";
import { listInvocableSkills } from "../agents/skills/invocable-skills.js";
import { createImageDescriber } from "../agents/media/image-describer.js";
import { isApprovalDecision } from "../agents/approvals/approval-broker.js";
import { embedderFromConfig, MemoryService } from "../memory/index.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import { channelsStatusPayload, registerChannelMethods } from "./methods/channel-methods.js";
import { registerMessageActionMethods } from "./methods/message-action-methods.js";
import { registerChannelRoutes } from "./http/channel-routes.js";
import { findControlUiDir, registerControlUiRoutes } from "./http/control-ui/control-ui-routes.js";
import { resolveControlUiSettings } from "./http/control-ui/control-ui-settings.js";
import type { ChannelManager } from "../channels/channel-manager.js";
import { anyChannelConfigured } from "../channels/config/channel-accounts.js";
import { registerOpenAiRoutes } from "./http/openai/index.js";
import { ConversationService } from "../conversations/conversation-service.js";
import { startSessionMaintenance } from "../conversations/session-maintenance.js";
import { maintenanceSettingsOf } from "../conversations/maintenance-pass.js";
import { execGrantsPath } from "../agents/approvals/exec-grant-file.js";
import { createHttpTurnRunner } from "./http/openai/http-turn.js";
import { mediaLimitsFrom } from "./http/openai/request-media.js";
import { ClientMedia } from "./client-media.js";
import { httpEmbeddings } from "./http-embeddings.js";
import { SessionStore } from "../sessions/store/index.js";
import { IdempotencyLedger } from "../sessions/idempotency/index.js";
import { SessionSearchIndex, sessionSearchIndexPath } from "../sessions/search/index.js";
import { modelTextRedaction } from "./model-text-redaction.js";
import {
  BrowserService,
  browserSetup,
  cachedImageGenerationSetup,
  cachedWebSearchSetup,
  cachedXaiToolsSetup,
  createToolServices,
  getProcessRegistry,
  webSearchStyle,
} from "../agents/tools/index.js";
import { cachedSpeechSetup } from "../agents/speech/index.js";
import { McpHub } from "../agents/mcp/mcp-hub.js";
import type { ToolServices } from "../agents/types.js";
import { ExecApprovalBroker } from "../agents/approvals/approval-broker.js";
import { resolveFocusTarget, runSubagentsCommand, SubagentService } from "../agents/subagents/index.js";
import { ThreadBindingStore } from "../channels/thread-bindings.js";
import { chatCaller, createAcpControlPlane } from "./acp-wiring.js";
import { resolveAcpSettings } from "../acp/config.js";
import { sessionChatRoute } from "./session-chat-route.js";
import { runAcpCommand } from "../acp/commands/acp-command.js";
import type { AcpSessionManager } from "../acp/control-plane/manager.js";
import { canReceiveEvent } from "./protocol/scopes.js";
import { taskEventPayload } from "./task-events.js";
import { SessionMessageEvents } from "./session-message-events.js";
import { registerSessionMessageMethods } from "./methods/session-message-methods.js";
import { createSubagentThreads } from "../channels/subagent-threads.js";
import { SessionToolService } from "../agents/agent-to-agent/index.js";
import { registerHealthRoutes } from "./http/health-routes.js";
import { attributeIngress, PROXY_ATTRIBUTION_MESSAGE, PROXY_ATTRIBUTION_REFUSAL, type ProxySettings, proxySettingsOf } from "./ingress-attribution.js";
import { capByProxyScopes, readProxyIdentity } from "./auth/trusted-proxy.js";
import { buildHealthSnapshot } from "./health-snapshot.js";
import { defaultAgentId, listAgentConfigs } from "../agents/agent-config.js";
import { hookAgentTurnRunner } from "./hook-agent-turns.js";
import { configuredMcpTools, sessionTools } from "./session-tools.js";
import { ExecApprovalChats } from "./exec-approval-chat.js";
import { wakeHeartbeatOnExit } from "../cron/heartbeat/exec-completion-wake.js";
import { buildMainSessionKey } from "../sessions/keys/index.js";
import { PresenceTracker } from "./presence.js";
import { AuthRateLimiter } from "./auth/rate-limiter.js";
import { trustedProxyPolicy, type ResolvedAuth } from "./auth/resolve-auth.js";
import type { AcceptedConnect, ProxyContext } from "./handshake.js";
import type { ConfigReloadOutcome, ConfigReloadStatus, GatewayRuntime, GatewayTlsStatus, RestartPlan, RuntimeOverridesControl } from "./runtime.js";
import { createGatewayAdminPort } from "./chat-admin-port.js";
import { createChatDelivery } from "./chat-delivery.js";
import { loadBuiltinChannelPlugin } from "./builtin-channel-plugins.js";
import { ShutdownStages } from "../infra/shutdown-stages.js";
import { CLIENT_GOODBYE_WAIT_MS, TURN_DRAIN_WAIT_MS } from "./shutdown-deadline.js";
import type { ConfigIssue, ExecSecretReads, LoadedConfig, OpenClawConfig } from "../config/index.js";
import {
  CLOSE_POLICY_VIOLATION,
  CLOSE_SERVICE_RESTART,
  HEALTH_BROADCAST_INTERVAL_MS,
  MAX_BUFFERED_BYTES,
  MAX_PAYLOAD_BYTES,
  MAX_PENDING_HANDSHAKES,
  MAX_PREAUTH_PAYLOAD_BYTES,
  NON_PRESENCE_MODES,
} from "./protocol/constants.js";

export interface GatewayServerOptions {
  listener: EarlyListener;
  host: string;
  port: number;
  stateDir: string;
  version: string;
  startedAt: number;
  logger: Logger;
  /** Write failures and rotations of the log file (a full disk shows here, not as a crash). */
  logFileHealth: () => LogFileHealth;
  auth: ResolvedAuth;
  loadedConfig: () => LoadedConfig;
  configReloadStatus: () => ConfigReloadStatus;
  configFilePath: () => string;
  reloadConfigNow: (opts?: { rereadSecrets?: boolean; execReads?: ExecSecretReads }) => ConfigReloadOutcome;
  runtimeOverrides: RuntimeOverridesControl;
  requestRestart: (reason: string, delayMs: number) => RestartPlan;
  /** What would stop this gateway from starting again with `config` (its flags and env as now), by key. */
  startRefusals: (config: OpenClawConfig) => ConfigIssue[];
  tickIntervalMs: number;
  handshakeTimeoutMs: number;
  /** The scheduler's clock (the system clock unless the gateway runs inside a test). */
  cronClock?: CronClock;
  /** The served TLS certificate (it changes on renewal); absent without gateway.tls. */
  tls?: () => GatewayTlsStatus;
}

/** Events this gateway really emits; advertised in hello-ok. */
const EVENTS = [
  "connect.challenge",
  "tick",
  "presence",
  "health",
  "shutdown",
  "exec.approval.requested",
  "exec.approval.resolved",
  "config.changed",
  "cron",
  "heartbeat",
  "device.pair.requested",
  "device.pair.resolved",
  "agent",
  "chat",
  "sessions.changed",
  "question.requested",
  "question.resolved",
  "progressCard.changed",
  "session.message",
  "task",
];

/**
 * Server capabilities advertised in hello-ok, each a promise about a method's contract that
 * OpenClaw's clients check before calling it. `published-model-catalog`: `models.list` answers
 * `{models[]}` rows with `available` and, with `includeDetails`, `input` and `local`
 * (`openclaw models list` refuses to ask a gateway without it).
 */
const SERVER_CAPABILITIES = ["published-model-catalog"];

/**
 * The gateway's WebSocket and HTTP surface on one port: fastify for HTTP routes, `ws` for
 * the protocol. Owns the connections, broadcasts and the periodic tick/health events.
 */
export class GatewayServer {
  private readonly connections = new Set<GatewayConnection>();
  private readonly methods = new MethodRegistry();
  private readonly rateLimiter: AuthRateLimiter;
  private warnedUnattributable = false;
  private readonly presence: PresenceTracker;
  readonly approvals: ExecApprovalBroker;
  /** Shows an exec approval prompt in the chats it belongs in (exec-approval-chat.ts); set once the channels and sessions exist. */
  private approvalChats: ExecApprovalChats | undefined;
  /** Which optional tool families the gateway can offer now (set once its services exist). */
  private toolAvailability: () => ToolAvailability = () => ({
    xai: {},
    memory: false,
    messenger: false,
    cron: false,
    gateway: false,
    imageDescriber: false,
    imageGenerate: false,
    tts: false,
    browser: false,
    askUser: false,
    progressCards: false,
    goals: false,
  });
  /** Paired devices and pairing requests (`device.pair.*`, `openclaw devices`). */
  readonly devices: DeviceRegistry;
  readonly sessions: SessionStore;
  readonly ledger: IdempotencyLedger;
  private readonly pendingSystemEvents: PendingSystemEvents;
  /** Notices (reactions) waiting for a session's next message. */
  private readonly sessionSystemEvents: SessionSystemEvents;
  readonly conversations: ConversationService;
  /** Every run's trace (docs/traces.md). */
  readonly traces: TraceRecorder;
  readonly subagents: SubagentService;
  /** Background tasks: sub-agent spawns, cron runs, `agent` runs (docs/automation.md, "Background tasks"). */
  readonly tasks: TaskLedger;
  /** Opens nothing until an agent uses memory: the SQLite module loads on first use. */
  readonly memory: MemoryService;
  /** sessions_search's index of the transcripts; opened at the first search. */
  private readonly sessionSearch: SessionSearchIndex;
  readonly acp: AcpSessionManager;
  /** Scheduled jobs; SQLite loads only once a job exists. */
  readonly cron: CronService;
  readonly heartbeat: HeartbeatRunner;
  /** File-based hooks on gateway events (docs/automation.md#internal-hooks). */
  readonly internalHooks: InternalHookRunner;
  private cronStarting?: Promise<void>;
  /** The MCP servers of `mcp.servers`: nothing starts until a turn asks for their tools. */
  private readonly mcp: McpHub;
  private readonly toolServices: ToolServices;
  /** One tool called directly by an operator (`POST /tools/invoke`, `tools.invoke`). */
  private readonly invokeTool: (request: ToolInvokeRequest, options: { signal: AbortSignal; channel?: string }) => Promise<ToolInvokeOutcome>;
  private readonly maintenance: ReturnType<typeof startSessionMaintenance>;
  /** The sessions' progress cards (progress_card, progressCard.*); each stored write is a progressCard.changed. */
  private readonly progressCards: ProgressCardStore;
  /** Connections following sessions' transcripts (`sessions.messages.subscribe`, `session.message`). */
  private readonly sessionMessages = new SessionMessageEvents((event, payload, connIds) => this.broadcast(event, payload, { filter: (c) => connIds.has(c.connId) }));
  /** The sessions' goals (/goal, the goal tools, sessions.goal.*); each stored change is a sessions.changed with reason "goal". */
  readonly goals: GoalStore;
  private readonly sessionEvents: SessionEvents = {
    subscribers: new Set<string>(),
    changed: (key, reason, detail) => {
      if (reason === "patch") this.emitSessionPatch(key);
      // A session reset or deleted leaves no browser tabs it opened behind (OpenClaw's session tab cleanup).
      if (reason === "reset" || reason === "delete") this.toolServices.browser?.closeTabsOpenedBy(key);
      // A full reset cleared the session's card. Only a session that ever had one keeps a card
      // field (the tombstone of its last revision), so sessions that never did hear nothing; for
      // one already cleared the hint repeats, which a client's read settles.
      if (reason === "reset" && this.sessions.peek(key)?.progressCard) this.progressCardChanged(key, null);
      if (this.sessionEvents.subscribers.size === 0) return;
      const payload = sessionChangedPayload(key, reason, detail, { sessions: this.sessions, conversations: this.conversations, config: this.opts.loadedConfig().config });
      this.broadcast("sessions.changed", payload, { filter: (c) => this.sessionEvents.subscribers.has(c.connId) });
    },
  };
  readonly questions = new QuestionBroker({
    onRequested: (record) => this.broadcast("question.requested", record),
    onResolved: (id, outcome) => {
      this.broadcast("question.resolved", outcome.status === "answered" ? { id, status: "answered", answers: { answers: outcome.answers } } : { id, status: outcome.status });
      this.questionChats?.resolved(id, outcome);
    },
  });
  /** ask_user's questions in the sessions' chats. */
  private questionChats: QuestionChats | undefined;
  private readonly runtime: GatewayRuntime;
  private readonly wss: WebSocketServer;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Built when a channel block is configured (at start or on reload): a gateway without channels loads none of it. */
  private channels?: ChannelManager;
  private channelsStarting?: Promise<void>;
  private markChannelsStarted!: () => void;
  /** Resolves once the channels' first start has ended (at once without channels): work the start recovers waits on it for its chat. */
  private readonly channelsStarted = new Promise<void>((resolve) => (this.markChannelsStarted = resolve));
  /** Chat threads bound to sub-agents; kept apart from the channels so a child's end unbinds even while they are down. */
  private readonly threadBindings: ThreadBindingStore;
  /** `/subagents …` typed in a chat (WebSocket or channel), for the session it was typed in. */
  private readonly subagentsCommand = (sessionKey: string, args: string) => runSubagentsCommand(sessionKey, args, { service: this.subagents });
  /** `/tasks` typed in a chat: the session's background tasks. */
  private readonly tasksCommand = (sessionKey: string) => renderTaskBoard(this.tasks, sessionKey, this.conversations.resolveSessionKey(sessionKey, undefined).agentId, Date.now());
  /** `/acp …` typed in a chat. */
  private readonly acpCommand = (sessionKey: string, args: string) =>
    runAcpCommand(sessionKey, args, {
      manager: this.acp,
      subagents: this.subagents,
      callerFor: (key) => chatCaller(key, this.opts.loadedConfig().config, this.opts.stateDir, this.sessions),
    });
  /** `/approve <id> <decision>` typed in a chat: answers a pending exec approval. */
  private readonly approveCommand = (id: string, decision: string, by: string): string => {
    if (!isApprovalDecision(decision)) return `Unknown decision "${decision}". Use allow-once, allow-always or deny.`;
    return this.approvals.resolve(id, decision, by) ? `Approval ${id}: ${decision}.` : `No pending approval ${id} (it was answered already or expired).`;
  };
  /** `/answer <id> <reply>` typed (or pressed) in a chat: answers an ask_user question of that conversation. */
  private readonly answerCommand = (sessionKey: string, id: string, reply: string, by: QuestionReplier): string => {
    const record = this.questions.get(id);
    if (!record?.runId || record.sessionKey !== sessionKey) return `No question ${id} was asked in this conversation.`;
    if (record.status !== "pending") return `Question ${id} is no longer waiting (${record.status}).`;
    const askers = this.questions.askersOf(id);
    if (by.chat && !mayAnswerInChat(askers, by.chat)) return notYourQuestion(askers);
    // The "Other…" button: the next message is the answer.
    if (!reply) return `✍️ Reply with your own answer (or /answer ${id} <your answer>).`;
    return this.questions.answerText(id, reply, by.chat?.key ?? by.operator) ?? "✅ Answer sent.";
  };
  /** A plain `chat.send` while the session's run waits on its question: the message is the answer, recorded as accepted by that run. */
  private readonly answerWaiting = async (sessionKey: string, text: string, idempotencyKey: string): Promise<WaitingAnswer | undefined> => {
    const waiting = this.questions.pendingIn(sessionKey);
    if (!waiting?.runId || this.conversations.hasAccepted(idempotencyKey)) return undefined;
    const accepted = this.conversations.acceptAnswer(idempotencyKey, { runId: waiting.runId, sessionKey, method: "chat.send" });
    const problem = this.questions.answerText(waiting.id, text, "chat.send");
    await accepted;
    return problem ? { problem } : {};
  };
  /** `/tools`: the tools a session's next turn could use, for the one asking. */
  private readonly toolsCommand = async (sessionKey: string, senderIsOwner: boolean, channel?: string) => {
    const config = this.opts.loadedConfig().config;
    const { agentId } = this.conversations.resolveSessionKey(sessionKey, undefined);
    const mcpTools = await configuredMcpTools(this.mcp, config);
    const { tools } = sessionTools({
      ...(mcpTools ? { mcpTools } : {}),
      config,
      conversations: this.conversations,
      sessions: this.sessions,
      availability: this.toolAvailability(),
      sessionKey,
      agentId,
      senderIsOwner,
      ...(channel ? { channel } : {}),
    });
    return tools.map((tool) => ({ name: tool.name, description: tool.description }));
  };
  /** `/skill`: the skills a user may run for an agent. */
  private readonly skillsCommand = (agentId: string) => listInvocableSkills(this.opts.loadedConfig().config, agentId, this.opts.stateDir, process.env);
  /** `/config`, `/allowlist`, `/restart`, `/bash` typed in a chat (owner only). */
  private readonly adminCommands = createGatewayAdminPort({
    runtime: () => this.runtime,
    approvals: () => this.approvals,
    requestRestart: (reason, delayMs) => this.runtime.requestRestart(reason, delayMs),
  });
  /** Images operator clients and the HTTP API send with a message, saved and made into what the agent reads. */
  private readonly clientMedia: ClientMedia;
  private readonly operatorCommands: ChatCommands = {
    subagents: this.subagentsCommand,
    tasks: this.tasksCommand,
    acp: this.acpCommand,
    approve: this.approveCommand,
    answer: this.answerCommand,
    answerWaiting: this.answerWaiting,
    skills: this.skillsCommand,
    tools: this.toolsCommand,
    admin: this.adminCommands,
    deliverToChat: createChatDelivery({ channels: () => this.channels }),
  };
  private healthVersion = 0;
  /** Where the Control UI is mounted; its page opens the WebSocket there as well as at "/". */
  private controlUiBasePath = "/";
  /** True once the built UI is mounted (enabled and its files found). */
  controlUiServed = false;
  private isReady = false;
  private draining = false;
  /** The stages of `stop` still under way. */
  readonly stopStages = new ShutdownStages();

  /** The server's auth: `opts.auth`, with the trusted-proxy policy of the latest reload. */
  private auth: ResolvedAuth;
  /** The trusted-proxy policy and proxy list in force, to tell a reload that changes them. */
  private trustedProxyFingerprint: string;

  constructor(private readonly opts: GatewayServerOptions) {
    this.clientMedia = new ClientMedia({ stateDir: opts.stateDir, config: () => opts.loadedConfig().config, sessions: () => this.sessions, logger: opts.logger });
    this.auth = opts.auth;
    this.trustedProxyFingerprint = JSON.stringify([opts.auth.trustedProxy, proxySettingsOf(opts.loadedConfig().config)]);
    this.mcp = new McpHub(opts.logger);
    this.toolServices = createToolServices({ mcp: this.mcp, imageDescriber: createImageDescriber(() => opts.loadedConfig().config) });
    // One managed browser per gateway, decided at start (browser.* needs a restart); it launches on first use.
    const browser = browserSetup(opts.loadedConfig().config);
    if (browser.settings) this.toolServices.browser = new BrowserService(browser.settings, opts.stateDir);
    else if (opts.loadedConfig().config.browser?.enabled === true) opts.logger.warn({ problem: browser.problem }, "the browser tool is not offered");
    const rateLimit = opts.loadedConfig().config.gateway?.auth?.rateLimit;
    this.rateLimiter = new AuthRateLimiter({
      maxAttempts: rateLimit?.maxAttempts ?? 10,
      windowMs: rateLimit?.windowMs ?? 60_000,
      lockoutMs: rateLimit?.lockoutMs ?? 300_000,
      exemptLoopback: rateLimit?.exemptLoopback ?? true,
    });
    this.presence = new PresenceTracker((presence) => this.broadcast("presence", { presence }));
    this.runtime = {
      version: opts.version,
      startedAt: opts.startedAt,
      stateDir: opts.stateDir,
      host: opts.host,
      port: opts.port,
      authMode: opts.auth.mode,
      logger: opts.logger,
      logFileHealth: opts.logFileHealth,
      presence: this.presence,
      config: () => opts.loadedConfig().config,
      loadedConfig: opts.loadedConfig,
      configReloadStatus: opts.configReloadStatus,
      configFilePath: opts.configFilePath,
      reloadConfigNow: opts.reloadConfigNow,
      runtimeOverrides: opts.runtimeOverrides,
      requestRestart: opts.requestRestart,
      startRefusals: opts.startRefusals,
      connectionCount: () => this.connections.size,
      tls: () => opts.tls?.(),
      ready: () => this.isReady && !this.draining,
      broadcast: (event, payload, opts) => this.broadcast(event, payload, opts),
      sessions: () => this.sessions,
      channelsStatus: () => channelsStatusPayload(this.channels),
      heartbeats: () => this.heartbeat.settings(),
    };
    this.sessions = new SessionStore(opts.stateDir, { onWarning: (warning) => opts.logger.warn(warning) });
    this.goals = new GoalStore({ sessions: this.sessions, onChanged: (key) => this.sessionEvents.changed(key, "goal") });
    this.progressCards = new ProgressCardStore({ sessions: this.sessions, onChanged: (key, card) => this.progressCardChanged(key, card?.revision ?? null) });
    this.ledger = new IdempotencyLedger(opts.stateDir);
    this.pendingSystemEvents = new PendingSystemEvents(opts.stateDir);
    this.sessionSystemEvents = new SessionSystemEvents(opts.stateDir);
    // A session the hourly pass archives is gone from the store, as after sessions.delete.
    this.maintenance = startSessionMaintenance(
      this.sessions,
      opts.logger,
      () => maintenanceSettingsOf(opts.loadedConfig().config),
      (key) => this.sessionEvents.changed(key, "delete"),
    );
    this.approvals = new ExecApprovalBroker({
      onRequested: (request) => {
        this.broadcast("exec.approval.requested", execApprovalRequestedEvent(request));
        this.approvalChats?.prompt(request);
      },
      onResolved: (resolution, request) => {
        this.broadcast("exec.approval.resolved", execApprovalResolvedEvent(resolution, request));
        this.approvalChats?.resolved(resolution, request);
      },
      grantFile: execGrantsPath(opts.stateDir),
      onWarning: (message) => opts.logger.warn(message),
    });
    this.devices = new DeviceRegistry(opts.stateDir, {
      onRequested: (request) => this.broadcast("device.pair.requested", request),
      onResolved: (resolution) => this.broadcast("device.pair.resolved", resolution),
      onRevoked: (deviceId) => this.closeDeviceConnections(deviceId),
    });
    registerSystemMethods(this.methods);
    registerDiagnosticsMethods(this.methods);
    registerDeviceMethods(this.methods, this.devices);
    registerNodeMethods(this.methods);
    registerExecApprovalMethods(this.methods, this.approvals);
    registerApprovalMethods(this.methods, this.approvals, () => `${this.controlUiBasePath.replace(/\/?$/, "/")}#/approvals`);
    registerExecPolicyMethods(this.methods, this.approvals.grants);
    registerCatalogMethods(this.methods);
    registerSkillMethods(this.methods);
    registerConfigMethods(this.methods);
    registerSecretsMethods(this.methods);
    registerLogMethods(this.methods);
    this.traces = new TraceRecorder({
      stateDir: opts.stateDir,
      config: () => opts.loadedConfig().config,
      env: process.env,
      logger: opts.logger,
      judgeModel: (call, signal) => this.conversations.reviewJudgeCall(call, signal),
      textEmbedder: () => embedderFromConfig(opts.loadedConfig().config, process.env),
    });
    const canonicalSessionKey = (key: string) => this.conversations.resolveSessionKey(key, undefined).sessionKey;
    registerTraceMethods(this.methods, this.traces, canonicalSessionKey);
    registerAuditMethods(this.methods, this.traces, canonicalSessionKey);
    this.internalHooks = new InternalHookRunner({
      config: () => opts.loadedConfig().config,
      stateDir: opts.stateDir,
      bundledDir: resolveBundledHooksDir(),
      logger: opts.logger,
      workspaceDirOf: (agentId) => resolveWorkspaceDir(opts.loadedConfig().config, agentId, opts.stateDir, process.env),
      defaultAgentId: () => defaultAgentId(opts.loadedConfig().config),
      agentTurns: hookAgentTurnRunner(() => this.conversations, opts.logger),
    });
    registerHookMethods(this.methods, this.internalHooks);
    localModelServices.setLog((level, message) => opts.logger[level](message));
    this.conversations = new ConversationService({
      stateDir: opts.stateDir,
      config: () => opts.loadedConfig().config,
      store: this.sessions,
      ledger: this.ledger,
      logger: opts.logger,
      approvals: this.approvals,
      services: this.toolServices,
      maintenance: this.maintenance,
      sink: {
        agent: (payload, o) => this.broadcast("agent", payload, o?.toolEvent ? { filter: (c) => c.caps.includes("tool-events") } : {}),
        chat: (payload) => this.broadcast("chat", payload),
        listening: () => this.connections.size > 0,
      },
      onSessionChanged: (key, reason, detail) => {
        if (reason === "run-ended") this.subagents.onSessionRunEnded(key);
        this.sessionEvents.changed(key, reason, detail);
      },
      turnOverrides: (key) => this.subagents.turnOverrides(key) ?? this.cron.turnOverrides(key),
      hooks: this.internalHooks,
      onStop: (key) => this.subagents.stopChildrenOf(key).length,
      tracer: this.traces,
      notifyChat: (key, text, noticeKey) => this.notifyChat(key, text, noticeKey),
      systemEvents: this.sessionSystemEvents,
      onMessagesAppended: (key, appended, runId) => {
        // The messages are written whatever their followers hear: a failed event never fails the write.
        try {
          this.sessionMessages.appended(key, appended, runId);
        } catch (err) {
          opts.logger.warn({ err: (err as Error).message, sessionKey: key }, "session.message could not be sent");
        }
      },
    });
    this.threadBindings = new ThreadBindingStore(opts.stateDir, (warning) => opts.logger.warn(warning));
    this.questionChats = new QuestionChats({ config: () => opts.loadedConfig().config, channels: () => this.channels, store: this.sessions, logger: opts.logger });
    const listeningFor = (event: string) => [...this.connections].some((c) => c.scopes.length > 0 && canReceiveEvent(c.scopes, event));
    const acp = createAcpControlPlane({
      stateDir: opts.stateDir,
      config: () => opts.loadedConfig().config,
      logger: opts.logger,
      approvals: this.approvals,
      questions: { broker: this.questions, chats: this.questionChats },
      store: this.sessions,
      hasApprover: () => listeningFor("exec.approval.requested"),
      hasQuestioner: () => listeningFor("question.requested"),
      broadcast: (event, payload) => this.broadcast(event, payload),
      channels: () => this.channels,
      tracer: this.traces,
    });
    this.acp = acp.manager;
    this.approvalChats = new ExecApprovalChats({ config: () => opts.loadedConfig().config, channels: () => this.channels, store: this.sessions, logger: opts.logger });
    this.toolServices.questions = askUserHost(this.questions, this.questionChats, (runId) => this.conversations.runs.get(runId)?.startedBy);
    // `task` events are droppable: a slow client that misses one reads tasks.list again.
    this.tasks = new TaskLedger({
      stateDir: opts.stateDir,
      logger: opts.logger,
      onChange: (change) => this.broadcast("task", taskEventPayload(change), { droppable: true }),
    });
    this.subagents = new SubagentService({
      tasks: this.tasks,
      acp: acp.children,
      stateDir: opts.stateDir,
      config: () => opts.loadedConfig().config,
      store: this.sessions,
      conversations: this.conversations,
      logger: opts.logger,
      threads: createSubagentThreads({
        channels: () => this.channels,
        bindings: this.threadBindings,
        store: this.sessions,
        logger: opts.logger,
        config: () => this.opts.loadedConfig().config,
      }),
      // A parent whose conversation is in a chat answers its announcement there. Announcements
      // owed from before a restart are accepted before the channels run: the answer waits for them.
      onAnnouncementAccepted: (sessionKey, run) => {
        void this.channelsStarted
          .then(() => this.channels?.deliverSessionRun(sessionKey, run))
          .catch((err) => opts.logger.warn({ sessionKey, err: (err as Error).message }, "announcement answer not delivered to the chat"));
      },
    });
    this.sessionSearch = new SessionSearchIndex({ file: sessionSearchIndexPath(opts.stateDir), onWarning: (message) => opts.logger.warn(message) });
    this.toolServices.sessionTools = new SessionToolService({
      config: () => opts.loadedConfig().config,
      store: this.sessions,
      conversations: this.conversations,
      subagents: this.subagents,
      logger: opts.logger,
      searchIndex: this.sessionSearch,
      redact: modelTextRedaction(() => opts.loadedConfig().config, process.env),
    });
    registerAgentMethods(this.methods, this.conversations, this.operatorCommands, this.clientMedia, this.tasks);
    registerChatMethods(this.methods, this.conversations, this.operatorCommands, this.clientMedia);
    registerChatInjectMethod(this.methods, this.conversations);
    registerSessionMethods(this.methods, this.conversations, this.sessionEvents);
    registerSessionMessageMethods(this.methods, this.conversations, this.sessionMessages);
    registerSessionCleanupMethods(this.methods, this.sessionEvents);
    registerProgressCardMethods(this.methods, this.conversations, this.progressCards);
    this.toolServices.progressCards = this.progressCards;
    registerSessionGoalMethods(this.methods, this.conversations, this.goals);
    this.toolServices.goals = this.goals;
    this.operatorCommands.goals = this.goals;
    registerSessionCreateMethods(this.methods, this.conversations, (key, reason) => this.sessionEvents.changed(key, reason));
    registerSessionReadMethods(this.methods, this.conversations);
    registerCommandMethods(this.methods);
    registerQuestionMethods(this.methods, this.questions);
    registerAgentFileMethods(this.methods);
    registerAgentRosterMethods(this.methods);
    registerUsageMethods(this.methods, new UsageRecords(opts.stateDir));
    registerTtsMethods(this.methods);
    this.memory = new MemoryService({
      stateDir: opts.stateDir,
      config: () => opts.loadedConfig().config,
      logger: opts.logger,
      workspaceDirOf: (agentId) => resolveWorkspaceDir(opts.loadedConfig().config, agentId, opts.stateDir, process.env),
    });
    this.toolServices.memory = this.memory;
    registerMemoryMethods(this.methods, this.memory, (runtime) => defaultAgentId(runtime.config()));
    registerDoctorMethods(this.methods, this.memory, (runtime) => defaultAgentId(runtime.config()));
    registerModelAuthMethods(
      this.methods,
      (agentId) => this.conversations.authProfiles(agentId),
      (runtime) => defaultAgentId(runtime.config()),
    );
    registerChannelMethods(this.methods, () => this.channels);
    registerMessageActionMethods(this.methods, () => this.channels);
    const toolAvailability = (this.toolAvailability = () => ({
      webSearch: webSearchStyle(cachedWebSearchSetup(opts.loadedConfig().config, process.env).host),
      xai: cachedXaiToolsSetup(opts.loadedConfig().config, process.env),
      memory: this.memory.enabled(),
      messenger: this.channels !== undefined,
      cron: this.toolServices.cron !== undefined,
      gateway: this.toolServices.gateway !== undefined,
      imageDescriber: this.toolServices.imageDescriber !== undefined,
      imageGenerate: cachedImageGenerationSetup(opts.loadedConfig().config, process.env).host !== undefined,
      tts: cachedSpeechSetup(opts.loadedConfig().config, process.env).host !== undefined,
      browser: this.toolServices.browser !== undefined,
      askUser: true,
      progressCards: true,
      goals: true,
    }));
    this.invokeTool = (request, options) =>
      invokeTool(
        {
          config: () => opts.loadedConfig().config,
          stateDir: opts.stateDir,
          conversations: this.conversations,
          sessions: () => this.sessions,
          services: this.toolServices,
          availability: toolAvailability,
          logger: opts.logger,
        },
        request,
        options,
      );
    registerToolMethods(this.methods, this.conversations, toolAvailability, this.invokeTool, (config) => configuredMcpTools(this.mcp, config));
    this.toolServices.channelMessenger = {
      send: async (request: Parameters<ChannelManager["sendFromTool"]>[0]) => {
        // Channels start in the background once the gateway is ready; a turn that runs meanwhile
        // (BOOT.md at start-up) sends once they have started, not into "no channel".
        await this.channelsStarting?.catch(() => {});
        if (!this.channels) throw new Error("no chat channel is configured on this gateway");
        return this.channels.sendFromTool(request);
      },
      act: async (request: Parameters<ChannelManager["actFromTool"]>[0]) => {
        await this.channelsStarting?.catch(() => {});
        if (!this.channels) throw new Error("no chat channel is configured on this gateway");
        return this.channels.actFromTool(request);
      },
    };
    this.cron = new CronService({
      tasks: this.tasks,
      stateDir: opts.stateDir,
      config: () => opts.loadedConfig().config,
      conversations: this.conversations,
      logger: opts.logger,
      env: process.env,
      channels: () => this.cronChannels,
      emit: (event) => this.broadcast("cron", { ...event, ts: Date.now() }),
      ...(opts.cronClock ? { clock: opts.cronClock } : {}),
      queueForHeartbeat: (agentId, _sessionKey, text, key) => {
        if (!this.heartbeat.beats(agentId)) return false;
        // Already queued under this key (the same run again): it is on its way, not a second event.
        this.heartbeat.queueEvent(agentId, text, { key });
        return true;
      },
    });
    this.heartbeat = new HeartbeatRunner({
      config: () => opts.loadedConfig().config,
      conversations: this.conversations,
      channels: () => this.cronChannels,
      logger: opts.logger,
      clock: opts.cronClock ?? systemClock,
      workspaceDirOf: (agentId) => resolveWorkspaceDir(opts.loadedConfig().config, agentId, opts.stateDir, process.env),
      emit: (event) => this.broadcast("heartbeat", event),
      pending: this.pendingSystemEvents,
    });
    registerHeartbeatMethods(this.methods, this.heartbeat, this.conversations);
    getProcessRegistry(this.toolServices)?.onFinished(wakeHeartbeatOnExit(this.heartbeat, this.conversations, () => defaultAgentId(opts.loadedConfig().config)));
    this.toolServices.cron = createCronToolHost(this.cron);
    this.toolServices.gateway = createGatewayToolHost(() => this.runtime);
    registerCronMethods(this.methods, this.cron);
    registerTaskMethods(this.methods, {
      ledger: this.tasks,
      subagents: this.subagents,
      conversations: this.conversations,
      canonicalSessionKey: (key) => this.conversations.resolveSessionKey(key, undefined).sessionKey,
    });
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PREAUTH_PAYLOAD_BYTES, perMessageDeflate: false });
  }

  async start(): Promise<void> {
    // Fastify hands over its request handler while it is built (synchronously, below).
    let requestHandler: RequestHandler | undefined;
    const app = Fastify({
      logger: false,
      // Requests Node's parser refuses (control characters in headers, oversized headers) still
      // get an OpenAI-shaped error body, which every client on this port can read.
      clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
        if (socket.writable) socket.end(clientErrorResponse(err));
        else socket.destroy();
      },
      bodyLimit: 1024 * 1024,
      serverFactory: (handler) => {
        requestHandler = handler;
        // WebSocket clients need only `ws` and the methods, which are ready now.
        this.opts.listener.attachUpgrades((req, socket, head) => this.onUpgrade(req, socket, head));
        return this.opts.listener.server;
      },
    });
    registerHealthRoutes(
      app,
      this.runtime,
      () => this.draining,
      () => this.proxies(),
    );
    registerOpenAiRoutes(app, {
      responseSessionsFile: path.join(this.opts.stateDir, "http", "response-sessions.jsonl"),
      enabled: () => {
        const endpoints = this.opts.loadedConfig().config.gateway.http.endpoints;
        return endpoints.chatCompletions.enabled || endpoints.responses.enabled;
      },
      auth: () => this.auth,
      rateLimiter: this.rateLimiter,
      proxies: () => this.proxies(),
      agents: () => listAgentConfigs(this.opts.loadedConfig().config).map((a) => ({ id: a.id, ...(a.name ? { name: a.name } : {}), isDefault: a.isDefault })),
      modelProblem: (ref) => {
        const resolved = resolveModel(ref, this.opts.loadedConfig().config, process.env);
        return resolved.ok ? undefined : resolved.message;
      },
      explainFailure: (err) => describeStorageError(err, this.runtime.stateDir),
      mediaLimits: (endpoint) => mediaLimitsFrom(this.opts.loadedConfig().config.gateway.http.endpoints[endpoint], endpoint),
      embed: httpEmbeddings(() => this.opts.loadedConfig().config),
      runTurn: createHttpTurnRunner(this.conversations, { config: () => this.opts.loadedConfig().config, sessions: () => this.sessions }, this.operatorCommands, this.clientMedia),
      logger: this.opts.logger,
    });
    registerHooksRoutes(app, {
      config: () => this.opts.loadedConfig().config,
      conversations: this.conversations,
      channels: () => this.cronChannels,
      logger: this.opts.logger,
      wake: (target, text, mode, key) => wake(this.heartbeat, this.conversations, target, text, mode, key),
    });
    registerToolsInvokeRoute(app, { auth: () => this.auth, rateLimiter: this.rateLimiter, proxies: () => this.proxies(), invoke: this.invokeTool });
    registerChannelRoutes(app, () => this.channels);
    this.registerControlUi(app);
    const interrupted = this.sessions.recoverInterruptedRuns();
    if (interrupted.length > 0) this.opts.logger.warn({ sessions: interrupted }, "runs interrupted by the last shutdown were released");
    // ACP processes a crash left behind are ended before their sub-agent rounds are settled.
    this.acp.start();
    // Tasks the last process left running are lost before sub-agents and cron record anything new.
    await this.tasks.start().catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "background task ledger did not start"));
    // Open sub-agent rounds and owed announcements from the last process are picked up here.
    this.subagents.start();
    await app.ready();
    this.timers.push(setInterval(() => this.broadcast("tick", { ts: Date.now() }, { droppable: true }), this.opts.tickIntervalMs));
    this.timers.push(setInterval(() => this.broadcastHealth(), HEALTH_BROADCAST_INTERVAL_MS));
    for (const t of this.timers) t.unref();
    // Real gateways list themselves in presence; clients show the entry as "this gateway".
    this.presence.upsert("gateway-self", {
      ts: Date.now(),
      host: os.hostname(),
      version: this.opts.version,
      platform: process.platform,
      mode: "gateway",
      reason: "self",
      instanceId: randomUUID(),
      text: `Gateway: ${os.hostname()}`,
      onlineSince: this.opts.startedAt,
    });
    if (!requestHandler) throw new Error("fastify did not build its server through serverFactory");
    this.isReady = true;
    // HTTP requests that arrived while starting were held; a ready app answers them now.
    const answer = requestHandler;
    this.opts.listener.attachRequests((req, res) => {
      setSecurityHeaders(res, this.opts.loadedConfig().config.gateway.http?.securityHeaders?.strictTransportSecurity);
      answer(req, res);
    });
    setImmediate(() => this.conversations.warmUp());
    // Runs queued for review and left ungraded by the last process are graded now, in the background.
    setImmediate(() => this.traces.resumeBackgroundWork());
    const config = this.opts.loadedConfig().config;
    const agents = listAgentConfigs(config).map((a) => ({ agentId: a.id, workspaceDir: resolveWorkspaceDir(config, a.id, this.opts.stateDir, process.env) }));
    this.internalHooks.emit({ type: "gateway", action: "startup", context: { port: this.opts.port, agents } });
    this.startChannels(this.opts.loadedConfig().config);
    // After the channels: a reply owed from before a restart needs its chat running.
    this.cronStarting = (async () => {
      await this.channelsStarting;
      if (this.draining) return;
      this.heartbeat.start();
      await this.cron.start();
    })().catch((err) => this.opts.logger.error({ err: (err as Error).message }, "cron failed to start"));
  }

  /** Chat delivery for scheduled runs, once any channel is configured. */
  private get cronChannels() {
    if (!anyChannelConfigured(this.opts.loadedConfig().config)) return undefined;
    return (this.cronChannelPort ??= createCronChannelPort({ channels: () => this.channels, config: () => this.opts.loadedConfig().config, sessions: this.sessions }));
  }
  private cronChannelPort?: ReturnType<typeof createCronChannelPort>;
  /** The browser UI, when enabled and built; a gateway without the built files says so once and serves the rest. */
  private registerControlUi(app: ReturnType<typeof Fastify>): void {
    const settings = resolveControlUiSettings(this.opts.loadedConfig().config);
    if (!settings.enabled) return;
    const dir = findControlUiDir();
    if (!dir) {
      this.opts.logger.warn("gateway.controlUi is enabled but the UI files are not built (dist/control-ui/index.html is missing); run `npm run build`");
      return;
    }
    this.controlUiBasePath = settings.basePath;
    this.controlUiServed = true;
    registerControlUiRoutes(app, { dir, basePath: settings.basePath, logger: this.opts.logger });
  }

  /** Channels start in the background: a slow platform must not hold the gateway's readiness. */
  private startChannels(config: LoadedConfig["config"]): void {
    this.channelsStarting = (async () => {
      await this.channelsStarting;
      if (this.draining) return;
      // Checked before the import: a gateway without channels never loads the manager's code.
      if (!this.channels && !anyChannelConfigured(config)) return;
      const { ChannelManager } = await import("../channels/channel-manager.js");
      if (!this.channels) {
        this.channels = new ChannelManager({
          stateDir: this.opts.stateDir,
          env: process.env,
          logger: this.opts.logger,
          config: () => this.opts.loadedConfig().config,
          loadPlugin: loadBuiltinChannelPlugin,
          conversations: this.conversations,
          store: this.sessions,
          ledger: this.ledger,
          subagentsCommand: this.subagentsCommand,
          tasksCommand: this.tasksCommand,
          acpCommand: this.acpCommand,
          approveCommand: this.approveCommand,
          answerCommand: this.answerCommand,
          goals: this.goals,
          questionReplies: this.questions,
          toolsCommand: this.toolsCommand,
          skillsCommand: this.skillsCommand,
          adminCommands: this.adminCommands,
          threadBindings: this.threadBindings,
          focusTarget: (keys, target) => resolveFocusTarget(this.subagents, keys, target),
          acpThreadFollowUp: (childSessionKey, text) => this.subagents.followUpInThread(childSessionKey, text),
          hooks: this.internalHooks,
          systemEvents: this.sessionSystemEvents,
          reactionFeedback: {
            rate: async (runId, rating, note) => {
              if (reactionFeedbackEnabled(this.opts.loadedConfig().config)) await this.traces.feedback(runId, rating, note);
            },
            retract: async (runId, rating, note) => {
              if (reactionFeedbackEnabled(this.opts.loadedConfig().config)) await this.traces.retractFeedback(runId, rating, note);
            },
          },
          acp: {
            manager: this.acp,
            settings: () => resolveAcpSettings(this.opts.loadedConfig().config),
            defaultCwd: () => {
              const config = this.opts.loadedConfig().config;
              return resolveWorkspaceDir(config, defaultAgentId(config), this.opts.stateDir, process.env);
            },
            turnTimeoutSeconds: () => this.opts.loadedConfig().config.agents.defaults.timeoutSeconds,
          },
        });
        await this.channels.start();
      } else await this.channels.applyConfig(config);
    })().catch((err) => this.opts.logger.error({ err: (err as Error).message }, "channels failed to start"));
    void this.channelsStarting.then(this.markChannelsStarted);
  }

  /** A runtime notice (an automatic compaction) to the chat the session last talked in, once per key; nothing for sessions without a channel route. */
  /** `session:patch` for internal hooks: the session's settings as they are after `sessions.patch`. */
  private emitSessionPatch(sessionKey: string): void {
    const entry = this.sessions.peek(sessionKey);
    if (!entry) return;
    const settings = { model: entry.modelOverride, thinkingLevel: entry.thinkingLevel, verboseLevel: entry.verboseLevel, label: entry.label, sendPolicy: entry.sendPolicy };
    this.internalHooks.emit({ type: "session", action: "patch", sessionKey, context: { agentId: entry.agentId, ...stripUndefinedFields(settings) } });
  }

  private notifyChat(sessionKey: string, text: string, noticeKey: string): void {
    const route = sessionChatRoute(this.sessions.get(sessionKey));
    const channels = this.channels;
    if (!channels || !route) return;
    channels
      .send({
        ...route,
        message: text,
        idempotencyKey: `notice:${noticeKey}`,
      })
      .catch((err: Error) => this.opts.logger.warn({ sessionKey, err: err.message }, "notice not delivered to the chat"));
  }

  /** Settings that may change on hot reload without a restart. */
  applyConfig(loaded: LoadedConfig): void {
    this.conversations.applyConfig(loaded.config);
    this.applyTrustedProxyPolicy(loaded.config);
    if (this.isReady) this.startChannels(loaded.config);
    if (this.isReady) void this.cronStarting?.then(() => this.cron.applyConfig());
    if (this.isReady) this.heartbeat.applyConfig();
    const rateLimit = loaded.config.gateway?.auth?.rateLimit;
    if (rateLimit) {
      this.rateLimiter.update({
        maxAttempts: rateLimit.maxAttempts ?? 10,
        windowMs: rateLimit.windowMs ?? 60_000,
        lockoutMs: rateLimit.lockoutMs ?? 300_000,
        exemptLoopback: rateLimit.exemptLoopback ?? true,
      });
    }
  }

  /**
   * Tell every client we are going, close with 1012, and give sockets a moment to say goodbye.
   * Each stage is listed in `stopStages` while it runs, for the shutdown deadline's report.
   */
  async stop(reason: string, restartExpectedMs?: number): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    const stage = <T>(name: string, start: () => Promise<T>): Promise<T> => this.stopStages.run(name, start);
    for (const t of this.timers) clearInterval(t);
    this.tasks.stopRecording();
    // Hooks hear the shutdown first, within their time budget.
    const hooks = stage("internal hooks on gateway:shutdown", () => this.internalHooks.emitAndWait({ type: "gateway", action: "shutdown", context: { reason } }));
    this.trackUnfinishedTurns();
    await hooks;
    this.approvals.denyAll();
    this.questions.cancelAll();
    // Sub-agents stop reacting first: children aborted by the drain stay open for the next start.
    await stage("sub-agents stop", () => this.subagents.stop());
    // Scheduled runs the drain aborts stay marked running: the next start records them as interrupted.
    await stage("cron start", async () => this.cronStarting);
    const cronStopped = stage("cron stop", () => this.cron.stop());
    this.heartbeat.stop();
    await stage("ACP sessions stop", () => this.acp.stop());
    // Let runs stop and persist what they have (they are aborted, not dropped).
    this.trackUnfinishedTurns();
    await Promise.race([this.conversations.drain(), new Promise((r) => setTimeout(r, TURN_DRAIN_WAIT_MS))]);
    await cronStopped;
    await stage("channels start", async () => this.channelsStarting?.catch(() => {}));
    const channels = this.channels;
    if (channels) {
      await stage("channels stop", () => channels.stop(this.stopStages).catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "channels did not stop cleanly")));
    }
    this.toolServices.processes?.killAll();
    await stage("MCP servers close", () => this.mcp.close());
    const browser = this.toolServices.browser;
    if (browser) await stage("browser close", () => browser.stop().catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "the browser did not close cleanly")));
    await stage("local model servers stop", () =>
      localModelServices.stopAll().catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "a local model server did not stop cleanly")),
    );
    await stage("memory index close", () => this.memory.close().catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "memory index did not close cleanly")));
    await stage("session search index close", () =>
      this.sessionSearch.close().catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "session search index did not close cleanly")),
    );
    this.maintenance.stop();
    await stage("task ledger close", () => this.tasks.stop());
    await stage("run traces close", () => this.traces.close().catch((err) => this.opts.logger.warn({ err: (err as Error).message }, "run traces did not close cleanly")));
    this.sessions.close();
    this.ledger.close();
    this.pendingSystemEvents.close();
    this.sessionSystemEvents.close();
    for (const conn of this.connections) {
      conn.sendEvent("shutdown", { reason, ...(restartExpectedMs !== undefined ? { restartExpectedMs } : {}) }, {});
      conn.close(CLOSE_SERVICE_RESTART, "service restart");
    }
    await stage("WebSocket clients close", () => waitUntil(() => this.wss.clients.size === 0, CLIENT_GOODBYE_WAIT_MS));
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  /**
   * The process exits without finishing the stop (its deadline passed, a second signal): the
   * session index updates still waiting for their coalesced write are written now, under the
   * rule of SessionStore.flushBeforeExit; a skipped or failed write is logged, never thrown.
   */
  saveBeforeAbandonedStop(): void {
    try {
      const outcome = this.sessions.flushBeforeExit();
      if (outcome !== "written" && outcome !== "nothing pending") {
        this.opts.logger.warn(`session index not written before exit (${outcome}); the next start restores the missing sessions from their transcripts`);
      }
    } catch (err) {
      this.opts.logger.warn({ err: (err as Error).message }, "session index not written before exit; the next start restores the missing sessions from their transcripts");
    }
  }

  /** Every turn not ended yet is listed among the stop's stages until it ends, also after the drain stopped waiting for it. */
  private trackUnfinishedTurns(): void {
    for (const run of this.conversations.runs.all()) if (!run.endedAt) this.stopStages.track(`turn ${run.sessionKey}`, run.done);
  }

  private onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const wsPath = path === "/" || path === this.controlUiBasePath || `${path}/` === this.controlUiBasePath;
    if (!wsPath || this.draining) {
      socket.end(`HTTP/1.1 ${this.draining ? "503 Service Unavailable" : "404 Not Found"}\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (this.pendingHandshakes() >= MAX_PENDING_HANDSHAKES) {
      this.opts.logger.warn({ ip: req.socket.remoteAddress, limit: MAX_PENDING_HANDSHAKES }, "too many unauthenticated connections; upgrade refused");
      socket.end("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n\r\n");
      return;
    }
    const ingress = attributeIngress(req.socket.remoteAddress, req.headers, this.proxies());
    if (ingress.kind === "unattributable-proxy") {
      this.reportUnattributable(ingress.remoteAddress);
      const body = JSON.stringify(PROXY_ATTRIBUTION_REFUSAL.body);
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws, req, ingress.clientIp));
  }

  /**
   * In `trusted-proxy` auth mode, what the upgrade request proves under the policy in force when
   * its `connect` frame arrives, so a handshake that waited over a reload gets the new policy.
   */
  private proxyContext(req: http.IncomingMessage): ProxyContext | undefined {
    const policy = this.auth.trustedProxy;
    if (this.auth.mode !== "trusted-proxy" || !policy) return undefined;
    const proxies = this.proxies();
    const ingress = attributeIngress(req.socket.remoteAddress, req.headers, proxies);
    return {
      identity: readProxyIdentity({ socketAddress: req.socket.remoteAddress, headers: req.headers, ingress }, policy, proxies),
      localDirect: ingress.kind === "direct-local",
      capScopes: (scopes) => capByProxyScopes(scopes, req.headers),
    };
  }

  /**
   * A reload that changes who the proxy may vouch for (`gateway.auth.trustedProxy`,
   * `identityScopes`, `gateway.trustedProxies`, `allowRealIpFallback`) applies to the next request
   * and handshake, and closes the connections the proxy let in, so they reconnect under it. A
   * change of auth mode waits for a restart.
   */
  private applyTrustedProxyPolicy(config: LoadedConfig["config"]): void {
    if (this.auth.mode !== "trusted-proxy" || config.gateway?.auth?.mode !== "trusted-proxy" || !config.gateway.auth.trustedProxy) return;
    const policy = trustedProxyPolicy(config);
    const fingerprint = JSON.stringify([policy, proxySettingsOf(config)]);
    if (fingerprint === this.trustedProxyFingerprint) return;
    this.trustedProxyFingerprint = fingerprint;
    this.auth = { ...this.auth, trustedProxy: policy };
    let closed = 0;
    for (const conn of this.connections) {
      if (conn.accepted?.authVia !== "trusted-proxy") continue;
      conn.close(CLOSE_SERVICE_RESTART, "trusted-proxy auth policy changed: reconnect");
      closed += 1;
    }
    this.opts.logger.info({ closedConnections: closed }, "trusted-proxy auth policy applied");
  }

  /** Whose forwarding headers name the client, from the current config. */
  private proxies(): ProxySettings {
    return proxySettingsOf(this.opts.loadedConfig().config);
  }

  /** One warning per process: the source is the operator's own proxy, and every request of it would repeat it. */
  private reportUnattributable(remoteAddress: string): void {
    if (this.warnedUnattributable) return;
    this.warnedUnattributable = true;
    this.opts.logger.warn({ remoteAddress }, `refused a connection with forwarding headers from ${remoteAddress}: ${PROXY_ATTRIBUTION_MESSAGE}`);
  }

  private pendingHandshakes(): number {
    let pending = 0;
    for (const conn of this.connections) if (!conn.isOpen) pending++;
    return pending;
  }

  private onSocket(ws: WebSocket, req: http.IncomingMessage, clientIp: string): void {
    const conn = new GatewayConnection(
      ws,
      clientIp,
      {
        runtime: this.runtime,
        methods: this.methods,
        rateLimiter: this.rateLimiter,
        auth: () => this.auth,
        logger: this.opts.logger,
        handshakeTimeoutMs: this.opts.handshakeTimeoutMs,
        devices: this.devices,
        helloPayload: (c, accepted) => this.helloPayload(c, accepted),
        onOpen: (c) => this.onConnectionOpen(c),
        onClose: (c) => this.onConnectionClose(c),
      },
      req.headers.origin,
      () => this.proxyContext(req),
    );
    this.connections.add(conn);
    ws.on("close", () => this.connections.delete(conn));
  }

  private helloPayload(conn: GatewayConnection, accepted: AcceptedConnect): Record<string, unknown> {
    const loaded = this.opts.loadedConfig();
    const agentId = defaultAgentId(loaded.config);
    const mainKey = loaded.config.session?.mainKey ?? "main";
    const isAdmin = accepted.scopes.includes("operator.admin");
    return {
      type: "hello-ok",
      protocol: accepted.protocol,
      server: { version: this.opts.version, connId: conn.connId },
      features: { methods: this.methods.names(), events: EVENTS, capabilities: SERVER_CAPABILITIES },
      snapshot: {
        presence: this.presence.list(),
        health: buildHealthSnapshot(this.runtime),
        stateVersion: this.stateVersion(),
        uptimeMs: Date.now() - this.opts.startedAt,
        appliedConfigHash: loaded.hash,
        // Paths describe the operator's machine: admins only, and never as null.
        ...(isAdmin && loaded.path ? { configPath: loaded.path } : {}),
        ...(isAdmin ? { stateDir: this.opts.stateDir } : {}),
        sessionDefaults: {
          defaultAgentId: agentId,
          mainKey,
          mainSessionKey: buildMainSessionKey(agentId, mainKey),
          scope: loaded.config.session?.scope ?? "per-sender",
        },
        ...(isAdmin ? { authMode: this.auth.mode } : {}),
      },
      auth: {
        role: accepted.role,
        scopes: accepted.scopes,
        ...(accepted.deviceToken ? { deviceToken: accepted.deviceToken.token, issuedAtMs: accepted.deviceToken.issuedAtMs } : {}),
      },
      policy: { maxPayload: MAX_PAYLOAD_BYTES, maxBufferedBytes: MAX_BUFFERED_BYTES, tickIntervalMs: this.opts.tickIntervalMs },
    };
  }

  private onConnectionOpen(conn: GatewayConnection): void {
    const accepted = conn.accepted!;
    const client = accepted.params.client;
    if (NON_PRESENCE_MODES.has(client.mode)) return;
    this.presence.upsert(conn.connId, {
      ts: Date.now(),
      ...(client.displayName ? { host: client.displayName } : {}),
      ip: conn.remoteAddress,
      version: client.version,
      platform: client.platform,
      ...(client.deviceFamily ? { deviceFamily: client.deviceFamily } : {}),
      ...(client.modelIdentifier ? { modelIdentifier: client.modelIdentifier } : {}),
      ...(client.timeZone ? { timeZone: client.timeZone } : {}),
      mode: client.mode,
      reason: "connect",
      ...(accepted.deviceId ? { deviceId: accepted.deviceId } : {}),
      ...(client.instanceId ? { instanceId: client.instanceId } : {}),
      roles: [accepted.role],
      scopes: accepted.scopes,
      onlineSince: conn.connectedAt,
    });
  }

  private onConnectionClose(conn: GatewayConnection): void {
    this.presence.remove(conn.connId);
    this.sessionEvents.subscribers.delete(conn.connId);
    this.sessionMessages.forget(conn.connId);
    this.opts.logger.debug({ connId: conn.connId }, "client disconnected");
  }

  /** A revoked device's sockets that came in on its token are closed (shared-secret ones keep their authority). */
  private closeDeviceConnections(deviceId: string): void {
    for (const conn of this.connections) {
      if (conn.accepted?.deviceId === deviceId && conn.accepted.authVia !== "shared-secret") conn.close(CLOSE_POLICY_VIOLATION, "device token revoked");
    }
  }

  private stateVersion(): { presence: number; health: number } {
    return { presence: this.presence.version, health: this.healthVersion };
  }

  private broadcastHealth(): void {
    this.healthVersion += 1;
    this.broadcast("health", buildHealthSnapshot(this.runtime));
  }

  /** `progressCard.changed`: a hint to read the session's card again (revision null: it has none now). */
  private progressCardChanged(sessionKey: string, revision: number | null): void {
    this.broadcast("progressCard.changed", { sessionKey, revision });
  }

  private broadcast(event: string, payload: unknown, opts: { droppable?: boolean; filter?: (conn: GatewayConnection) => boolean } = {}): void {
    const stateVersion = event === "presence" || event === "health" ? this.stateVersion() : undefined;
    for (const conn of this.connections) {
      if (!conn.isOpen || (opts.filter && !opts.filter(conn))) continue;
      conn.sendEvent(event, payload, { droppable: opts.droppable, ...(stateVersion ? { stateVersion } : {}) });
    }
  }
}

async function waitUntil(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

function stripUndefinedFields(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
