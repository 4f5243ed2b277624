import type { SpeechHost } from "./speech/index.js";
import type { OpenClawConfig } from "../config/index.js";
import type { ElevatedLevel } from "./sandbox/elevated-level.js";
import type { ExecSandbox } from "./sandbox/exec-sandbox.js";
import type { Static, TSchema } from "@sinclair/typebox";
import type { ProcessRegistry } from "./tools/process-registry.js";
import type { BrowserService } from "./tools/browser/browser-service.js";
import type { XaiToolsSetup } from "./tools/xai/xai-tools-setup.js";
import type { MemoryGetOutcome, MemorySearchOptions, MemorySearchResponse } from "../memory/index.js";
import type * as SessionToolArgs from "./tools/session-tool-params.js";
import type { Question, QuestionOutcome } from "./questions/question-broker.js";
import type { ClientToolCall } from "./client-tools.js";
import type { ProgressCard, ProgressCardContent } from "../sessions/progress-card/index.js";
import type { GoalStore } from "../sessions/goal/index.js";

/**
 * Contracts of the agent runtime, in one place. The loop, the providers, the tools, the prompt
 * builder and the policy pipeline code against these types; each rule stated here is binding.
 */

// Messages and the model stream are defined in the models layer, the lowest that uses them; the
// runtime's code and its tests keep reading them from this file.
export type {
  TextBlock,
  ThinkingBlock,
  ImageBlock,
  ToolCallBlock,
  Usage,
  StopReason,
  UserMessage,
  AssistantMessage,
  ToolResultMessage,
  ModelMessage,
  TranscriptMessage,
  HistoryMessage,
} from "../models/messages.js";
export type { ModelApi, ResolvedModel, ToolSpec, ModelRequest, ModelErrorKind, ModelStreamEvent, StreamModelFn } from "../models/types.js";
import type { TextBlock, ImageBlock, ToolCallBlock, Usage, StopReason, AssistantMessage, ModelMessage, HistoryMessage } from "../models/messages.js";
import type { ModelErrorKind } from "../models/types.js";

// ── Tools ─────────────────────────────────────────────────────────────────────────────────────
export interface ToolResult {
  content: (TextBlock | ImageBlock)[];
  details?: unknown;
  isError?: boolean;
}

export interface ToolContext {
  agentId: string;
  /** Absolute, realpath'd workspace root; file tools never leave it. */
  workspaceDir: string;
  sessionKey?: string;
  /** The chat channel this turn answers (`telegram`, `discord`, …); absent for a turn from the WebSocket or HTTP API. */
  channel?: string;
  /** The run the call belongs to (a question it asks is tied to it). */
  runId?: string;
  /** The local CLI and authenticated operator clients are the owner; channel senders may not be. */
  senderIsOwner: boolean;
  /** Everything else a tool may need (process registry, approvals, config) goes in services. */
  services: ToolServices;
  /** Set when this run is sandboxed: `exec` runs its commands in it (docs/security.md, "The exec sandbox"). */
  sandbox?: ExecSandbox;
  /** Set with `sandbox` when the sender made this run elevated (`/elevated`): `exec` runs on the host instead, at this level. */
  elevated?: Exclude<ElevatedLevel, "off">;
  /** The agent's `contextLimits.memoryGetMaxChars`, when set. */
  memoryGetMaxChars?: number;
}

/**
 * What tools reach beyond their arguments. Every service is optional; a tool states what it does
 * without one (and the session and message tools are not offered at all without theirs).
 */
export interface ToolServices {
  /** Background shell sessions (exec's `background`/`yieldMs`, the process tool). Absent: exec runs in the foreground. */
  processes?: ProcessRegistry;
  /** Consulted before every exec command. Absent: every command is allowed (OpenClaw's `full` mode). */
  execApprovals?: ExecApprovalGate;
  /** `true` lets web_fetch reach loopback, private and link-local addresses; anything else refuses them. */
  webFetchAllowPrivate?: boolean;
  /** The gateway's sessions, behind the session tools (and agents_list). */
  sessionTools?: SessionToolHost;
  /** The gateway's running channels, behind the message tool. */
  channelMessenger?: ChannelMessenger;
  /** The gateway's memory service, behind memory_search and memory_get. */
  memory?: MemoryToolHost;
  /** The gateway's scheduler, behind the cron tool (owner-only). */
  cron?: CronToolHost;
  /** The gateway's config file and schema, read behind the gateway tool (owner-only). */
  gateway?: GatewayToolHost;
  /** Describes images for a model that cannot see them (view_image's describe mode; agents/media/image-describer.ts). */
  imageDescriber?: ImageDescriber;
  /** The configured search provider, behind web_search (not offered without one: tools.web.search). */
  webSearch?: WebSearchHost;
  /** xAI's server-side tools, behind x_search and code_execution (not offered without an xAI key: plugins.entries.xai.config). */
  xai?: XaiToolsSetup;
  /** The configured image models, behind image_generate (not offered without a usable one: agents.defaults.mediaModels.image). */
  imageGeneration?: ImageGenerationHost;
  /** The configured speech provider, behind tts (not offered without a usable one: the tts block). */
  speech?: SpeechHost;
  /** The configured MCP servers (`mcp.servers`), whose tools join the turn's. */
  mcp?: McpToolHost;
  /** The gateway's managed browser, behind the browser tool (not offered without one: `browser.enabled`, a Chromium binary). */
  browser?: BrowserService;
  /** The gateway's questions to the user, behind ask_user (offered to a session's own runs only: see mayAskUser). */
  questions?: AskUserHost;
  /** Set in a heartbeat turn only: where heartbeat_respond leaves the turn's report for the heartbeat runner. */
  heartbeatReport?: HeartbeatReportSlot;
  /** The sessions' progress cards, behind progress_card (offered where a session exists, never to a sub-agent). */
  progressCards?: ProgressCardHost;
  /** The sessions' goals, behind get_goal, create_goal and update_goal (offered where a kept session exists). */
  goals?: GoalHost;
  /** Variables the turn's skills give its host `exec` commands (`skills.entries.<key>.env` and `apiKey`); never a sandboxed one's. */
  skillEnv?: Readonly<Record<string, string>>;
}

export const HEARTBEAT_OUTCOMES = ["no_change", "progress", "done", "blocked", "needs_attention"] as const;
export const HEARTBEAT_PRIORITIES = ["low", "normal", "high"] as const;

/** What a heartbeat turn reported with heartbeat_respond: whether the user is told, and what. */
export interface HeartbeatReport {
  outcome: (typeof HEARTBEAT_OUTCOMES)[number];
  notify: boolean;
  summary: string;
  notificationText?: string;
  reason?: string;
  priority?: (typeof HEARTBEAT_PRIORITIES)[number];
  nextCheck?: string;
}

/** One per heartbeat turn: the first accepted report, which decides over the turn's text. */
export interface HeartbeatReportSlot {
  accepted?: HeartbeatReport;
}

/**
 * Where progress_card writes: replaces the card of the agent's session (content without a note or
 * steps clears it) and resolves with the card now shown once it is on disk. Throws
 * ProgressCardRefusal when the session cannot hold a card.
 */
export interface ProgressCardHost {
  /** Whether the session's card is kept: false for a one-off session (a stateless HTTP request), which is not offered the tool. */
  keeps(sessionKey: string): boolean;
  write(sessionKey: string, agentId: string, content: ProgressCardContent): Promise<ProgressCard | null>;
}

/**
 * The session goals the goal tools read and change: a change resolves once it is on disk; a
 * rule break throws GoalTransitionError, a write with nowhere to go GoalRefusal.
 */
export type GoalHost = Pick<GoalStore, "keeps" | "read" | "create" | "setStatus">;

/** One ask_user call as the gateway takes it: the checked questions, who asks, and the longest wait. */
export interface AskUserRequest {
  questions: Question[];
  agentId: string;
  sessionKey: string;
  runId?: string;
  timeoutMs: number;
}

/**
 * What `ask_user` asks through: the gateway shows the questions to its operator clients and in
 * the session's chat, and resolves with how they ended. The signal (the run's) cancels the
 * question. Throws AskUserRefusal when the question cannot be asked (one is already pending for
 * the session).
 */
export interface AskUserHost {
  ask(request: AskUserRequest, signal: AbortSignal): Promise<QuestionOutcome>;
}

export class AskUserRefusal extends Error {}

/** The tools of the MCP servers `mcp.servers` configures. */
export interface McpToolHost {
  /** Whether the config enables any server (only then does a turn ask for the tools). */
  hasServers(config: OpenClawConfig): boolean;
  /** The enabled servers' tools, starting those not started yet; the same array until a server's tools change. */
  tools(config: OpenClawConfig): Promise<readonly AgentTool[]>;
}

/** One web_search call's query, as every provider receives it (checked and defaulted by the tool). */
export interface WebSearchQuery {
  query: string;
  count: number;
  country?: string;
  language?: string;
  searchLang?: string;
  uiLang?: string;
  freshness?: "day" | "week" | "month" | "year";
  /** YYYY-MM-DD. */
  dateAfter?: string;
  dateBefore?: string;
  categories?: string;
  /** DuckDuckGo's region code, e.g. `us-en`. */
  region?: string;
  safeSearch?: "strict" | "moderate" | "off";
}

/**
 * What web_search acts through (tools/web-search/): its provider, with auto-detection the ones set
 * up after it too (asked in turn when one fails), their limits and result cache.
 */
export interface WebSearchHost {
  /** The provider asked first. */
  readonly provider: string;
  /** The provider asked first answers with one written answer and its sources (Gemini, Grok, Sonar), not a list of pages. */
  readonly answers: boolean;
  /** The most results a call may ask for (`tools.web.search.maxResults`), also the default count. */
  readonly maxResults: number;
  search(query: WebSearchQuery, signal: AbortSignal): Promise<ToolResult>;
}

/**
 * One image model image_generate may try: a provider speaking OpenAI's Images API with its
 * endpoint, key and headers, or one that cannot run here and why (tried as a failure).
 */
export type ImageModelCandidate =
  | { kind: "provider"; ref: string; provider: string; model: string; baseUrl: string; apiKey?: string; headers?: Readonly<Record<string, string>> }
  /** `missingKey`: what it lacks is its API key (the model is told so as an auth failure). */
  | { kind: "unusable"; ref: string; reason: string; missingKey?: true };

/** What image_generate works through (tools/image-generate/): the models it tries in order, at least one of them usable. */
export interface ImageGenerationHost {
  readonly candidates: readonly ImageModelCandidate[];
  /** One call's limit on the provider when the call gives none (`agents.defaults.mediaModels.image.timeoutMs`). */
  readonly timeoutMs: number;
  /** A call's own `model`, the only one then tried; a bare model id takes the first usable candidate's provider. */
  candidateFor(ref: string): ImageModelCandidate;
}

export type CronToolAction = "status" | "list" | "get" | "add" | "update" | "remove" | "run" | "runs";

/**
 * What the `cron` tool acts through (the gateway's CronService): an action and its arguments as
 * `cron.*` takes them, on behalf of `agentId`. Throws `CronToolRefusal` for bad input or a
 * disabled scheduler; without a host (a local one-off run) the tool is not offered.
 */
export interface CronToolHost {
  /** `sessionKey`: the calling session, which a job's `sessionTarget: "current"` names. */
  call(action: CronToolAction, args: Record<string, unknown>, agentId: string, sessionKey?: string): Promise<unknown>;
}

/** An image put into words for a model that cannot see it; every attempt's failure when none could. */
export interface ImageDescriber {
  describe(image: { bytes: Buffer; mimeType: string }, prompt: string | undefined): Promise<{ text: string; via: string } | { failures: string[] }>;
}

/**
 * What the gateway tool reads: the config file as `config.get` shows it (secrets redacted, with
 * the hash an edit names) and one key's schema as `config.schema.lookup` does.
 */
export interface GatewayToolHost {
  configSnapshot(): Record<string, unknown> & { config: unknown; hash: string | null };
  /** Null when the schema has no such key. */
  schemaLookup(path: string): unknown;
}

export class CronToolRefusal extends Error {
  constructor(
    message: string,
    readonly unavailable = false,
  ) {
    super(message);
  }
}

/**
 * What `memory_search` and `memory_get` act through (the gateway's MemoryService). Without it (a
 * local one-off run) the memory tools are not offered.
 */
export interface MemoryToolHost {
  /** False when `memory.search.enabled` is off: the tools are then not offered. */
  enabled(): boolean;
  /** Session start: open the agent's index and sync it in the background; never waits. */
  prepare(agentId: string): void;
  search(agentId: string, query: string, options: MemorySearchOptions): Promise<MemorySearchResponse>;
  get(agentId: string, path: string, from?: number, lines?: number, maxChars?: number): Promise<MemoryGetOutcome>;
}

export type ExecApprovalDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Decides whether a shell command may run (allowlists, a human or a reviewer model). The exec
 * tool asks it before spawning anything.
 */
export interface ExecApprovalGate {
  /** `cwd`: the absolute directory the command is to run in (an approval shows it; a grant holds only there). */
  check(command: string, ctx: Pick<ToolContext, "agentId" | "sessionKey"> & { cwd: string }): Promise<ExecApprovalDecision>;
}

/** Who is calling a session tool: the session whose turn made the call. */
export interface SessionToolCaller {
  sessionKey: string;
  agentId: string;
  senderIsOwner: boolean;
  workspaceDir: string;
}

/**
 * What the session tools (`sessions_spawn`, `subagents`, `sessions_send`, `sessions_list`,
 * `sessions_history`, `sessions_search`, `session_status`, `sessions_yield`) and `agents_list`
 * act through; the gateway provides it.
 */
export interface SessionToolHost {
  spawn(caller: SessionToolCaller, args: SessionToolArgs.SessionsSpawnArgs): Promise<ToolResult>;
  subagents(caller: SessionToolCaller, args: SessionToolArgs.SubagentsArgs): Promise<ToolResult>;
  send(caller: SessionToolCaller, args: SessionToolArgs.SessionsSendArgs, signal: AbortSignal): Promise<ToolResult>;
  list(caller: SessionToolCaller, args: SessionToolArgs.SessionsListArgs): ToolResult;
  history(caller: SessionToolCaller, args: SessionToolArgs.SessionsHistoryArgs): ToolResult;
  /** Full-text search over the visible sessions' user and assistant messages (may index first: asynchronous). */
  search(caller: SessionToolCaller, args: SessionToolArgs.SessionsSearchArgs): Promise<ToolResult>;
  status(caller: SessionToolCaller, args: SessionToolArgs.SessionStatusArgs): ToolResult;
  /** The agents `sessions_spawn` may run a child as, for this caller. */
  agents(caller: SessionToolCaller): ToolResult;
  /** Ends the caller's turn to wait for its children; an error result (nothing to wait for) does not end it. */
  yieldTurn(caller: SessionToolCaller, args: SessionToolArgs.SessionsYieldArgs): ToolResult;
}

/** What the `message` tool asks of the gateway's channels. */
export interface ChannelMessageRequest {
  message: string;
  /** Absent: the chat the session's conversation lives in. */
  to?: string;
  channel?: string;
  accountId?: string;
  threadId?: string;
  /** The calling session (its last route is the default target). */
  sessionKey?: string;
  /** A file to post instead of a text message (`message` is its caption): the real path, already confined to the workspace. */
  file?: { path: string; fileName: string; voice?: boolean };
  /** Rows of buttons under the message, when it goes as one; a press comes back as its presser's message `callback_data: <value>`. */
  buttons?: { label: string; value: string; style?: "primary" | "success" | "danger" }[][];
}

export interface ChannelMessageResult {
  channel: string;
  accountId: string;
  chatId: string;
  messageIds: string[];
  /** Why the requested buttons are not under the message (it was sent without them). */
  buttonsNotAttached?: string;
}

/** What the `message` tool's react, edit and delete do to one message. */
export type ChannelMessageAction =
  /** Adds `emoji`; with `remove`, takes it back; an empty `emoji` takes back all of the bot's reactions. */
  { action: "react"; emoji: string; remove?: boolean } | { action: "edit"; message: string } | { action: "delete" };

/** One action on one message, in the chat `to` names (absent: the session's conversation). */
export type ChannelActionRequest = ChannelMessageAction & {
  /** Absent: for `react` in the session's conversation, the message the turn answers; otherwise required. */
  messageId?: string;
  to?: string;
  channel?: string;
  accountId?: string;
  threadId?: string;
  /** The calling session (its last route and last inbound message are the defaults). */
  sessionKey?: string;
};

export interface ChannelActionResult {
  action: ChannelMessageAction["action"];
  channel: string;
  accountId: string;
  chatId: string;
  messageId: string;
  /** react: the emoji added, or the one taken back (`""`: all of the bot's). */
  added?: string;
  removed?: string;
}

export interface ChannelMessenger {
  send(request: ChannelMessageRequest): Promise<ChannelMessageResult>;
  /** React to, edit or delete one message; throws with the reason when the channel cannot. */
  act(request: ChannelActionRequest): Promise<ChannelActionResult>;
}

/**
 * A tool: `description` says when to use it and when not; `parameters` is a typebox schema.
 * `execute` must not throw for expected failures: return `toolError(...)` (isError with a
 * structured message and a suggestion the model can act on). It must honour `signal`.
 */
export interface AgentTool<S extends TSchema = TSchema> {
  name: string;
  description: string;
  parameters: S;
  /** Only the owner may use it (exec, process, gateway, cron). */
  ownerOnly?: boolean;
  /**
   * Checks the arguments itself when `parameters` is a schema TypeBox does not hold (an MCP
   * server's JSON Schema): the first problem, or undefined. Without it, TypeBox checks `parameters`.
   */
  checkArguments?(args: unknown): { where: string; problem: string } | undefined;
  /** Never run here: a call of it ends the run and goes back to the turn's caller (a client tool, client-tools.ts). */
  handoff?: true;
  /**
   * A call that succeeds ends the run after this round of calls, with no further model call: what
   * the run waits for arrives later as a message of its own (sessions_yield).
   */
  endsRun?: true;
  execute(args: Static<S>, ctx: ToolContext, signal: AbortSignal, onUpdate?: (partial: ToolResult) => void): Promise<ToolResult>;
}

// ── The loop's events and hooks ───────────────────────────────────────────────────────────────
export type AgentEvent =
  | { type: "agent_start"; runId: string; startedAt: number }
  | { type: "message_start"; message: AssistantMessage }
  | { type: "message_update"; message: AssistantMessage; delta: { kind: "text" | "thinking"; text: string } }
  | { type: "message_end"; message: AssistantMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; partialResult: ToolResult }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: ToolResult; isError: boolean }
  | { type: "auto_compaction_start"; reason: "threshold" | "overflow" }
  | { type: "auto_compaction_end"; reason: "threshold" | "overflow"; ok: boolean; willRetry: boolean; tokensBefore?: number; tokensAfter?: number; error?: string }
  | { type: "agent_end"; result: RunResult }
  // Emitted around the loop by the embedded turn, not by the loop: what a run's trace needs
  // that the loop does not know (docs/traces.md).
  | { type: "run_context"; systemPrompt: string; promptVersion: string; model: string; tools: string[] }
  /** The conversation the run's model calls get before its own message (taken again after an overflow compaction). */
  | { type: "run_history"; messages: readonly HistoryMessage[] }
  | { type: "model_attempt"; ref: string; profileId?: string; ok: boolean; reason?: string; message?: string }
  | { type: "tool_decision"; toolCallId: string; toolName: string; action: "block" | "stop"; reason: string }
  | { type: "exec_approval"; command: string; policy: "allow" | "deny" | "ask"; answer?: string; allowed: boolean; reason?: string };

export interface ReplyPayload {
  text: string;
}

export interface RunResult {
  runId: string;
  /** What to show the user; empty when the reply was NO_REPLY or the run produced no text. */
  payloads: ReplyPayload[];
  usage: Usage;
  durationMs: number;
  stopReason: StopReason;
  /** `shutdown`: the gateway's stop cut the run (its stopReason is `aborted`). */
  error?: { kind: ModelErrorKind | "tool" | "loop" | "shutdown"; message: string };
  /** Messages this run appended (assistant turns and tool results), in order. */
  messages: ModelMessage[];
  /** With stopReason `toolUse`: the client tool calls the run ended with, for the caller to run. */
  clientToolCalls?: ClientToolCall[];
}

/**
 * Policy around the loop, not inside it. `beforeToolCall` may block a call (the model gets the
 * reason as an error result) or stop the run; `afterToolCall` may rewrite the result (truncation,
 * schema stripping) and add a reminder the model sees next.
 */
export interface ToolHooks {
  beforeToolCall?(call: ToolCallBlock): Promise<BeforeToolCallDecision> | BeforeToolCallDecision;
  afterToolCall?(call: ToolCallBlock, result: ToolResult): Promise<AfterToolCallOutcome> | AfterToolCallOutcome;
}

export type BeforeToolCallDecision = { action: "run" } | { action: "block"; reason: string } | { action: "stop"; reason: string };

export interface AfterToolCallOutcome {
  result: ToolResult;
  /** Text appended to the result the model sees (e.g. a loop-detection reminder). */
  reminder?: string;
  /** End the run after this call (hard loop cap), with this message as the error. */
  stop?: string;
}
