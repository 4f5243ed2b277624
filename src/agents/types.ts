import type { Static, TSchema } from "@sinclair/typebox";

/**
 * Contracts of the agent runtime, in one place. The loop, the providers, the tools, the prompt
 * builder and the policy pipeline code against these types; each rule stated here is binding.
 */

// ── Content blocks (the transcript format of OpenClaw's session files v3) ─────────────────────
export interface TextBlock { type: "text"; text: string }
export interface ThinkingBlock { type: "thinking"; thinking: string; signature?: string }
export interface ImageBlock { type: "image"; data: string; mimeType: string }
/** A complete tool call: arguments already parsed from the streamed JSON. */
export interface ToolCallBlock { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> }

// ── Messages ──────────────────────────────────────────────────────────────────────────────────
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Why an assistant turn (or a whole run) ended. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted" | "timeout" | "loop";

export interface UserMessage {
  role: "user";
  content: string | (TextBlock | ImageBlock)[];
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
  provider?: string;
  model?: string;
  usage?: Usage;
  stopReason?: StopReason;
  errorMessage?: string;
  timestamp: number;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextBlock | ImageBlock)[];
  isError: boolean;
  /** Structured data for UIs and logs; never sent to the model. */
  details?: unknown;
  timestamp: number;
}

/** The only messages a model ever sees. */
export type ModelMessage = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * A transcript line's message. It may carry any extra fields (ids, provenance, internal events
 * with other roles); `toModelMessages` keeps only user/assistant/toolResult and strips extras.
 */
export type TranscriptMessage = (ModelMessage & Record<string, unknown>) | { role: string; [key: string]: unknown };

/** What a turn is given as history: transcript messages, or their model projections (a gateway's cached window). */
export type HistoryMessage = TranscriptMessage | ModelMessage;

// ── Models ────────────────────────────────────────────────────────────────────────────────────
export type ModelApi = "anthropic-messages" | "openai-completions";

/** A model ref (`provider/model`) resolved against config and env into what a request needs. */
export interface ResolvedModel {
  ref: string;
  provider: string;
  id: string;
  api: ModelApi;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  input: ("text" | "image")[];
  /** Per-request timeout from `models.providers.<id>.timeoutSeconds`. */
  timeoutSeconds?: number;
}

/** A tool as the model sees it: JSON Schema parameters, normalized per provider by the provider. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: ResolvedModel;
  systemPrompt: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
}

export type ModelErrorKind =
  | "config" | "auth" | "rate_limit" | "server" | "network" | "malformed" | "context_length" | "bad_request" | "aborted" | "timeout" | "unknown";

/**
 * One internal stream for every provider. Rules: a provider's stream function must not throw;
 * every failure (HTTP status, network, a malformed stream, abort) is a final `error` event. A
 * stream ends with exactly one `done` or `error`. Tool calls arrive assembled (`toolcall`), after
 * their argument deltas were joined and parsed.
 */
export type ModelStreamEvent =
  | { type: "text_delta"; delta: string }
  | { type: "thinking_delta"; delta: string }
  | { type: "toolcall"; call: ToolCallBlock }
  | { type: "usage"; usage: Usage }
  | { type: "done"; stopReason: "stop" | "length" | "toolUse"; message: AssistantMessage }
  | { type: "error"; kind: ModelErrorKind; error: string; retryable: boolean; message: AssistantMessage };

export type StreamModelFn = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelStreamEvent>;

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
  /** The local CLI and authenticated operator clients are the owner; channel senders may not be. */
  senderIsOwner: boolean;
  /** Everything else a tool may need (process registry, approvals, config) goes in services. */
  services: ToolServices;
}

export interface ToolServices {
  [name: string]: unknown;
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
  | { type: "agent_end"; result: RunResult };

export interface ReplyPayload { text: string }

export interface RunResult {
  runId: string;
  /** What to show the user; empty when the reply was NO_REPLY or the run produced no text. */
  payloads: ReplyPayload[];
  usage: Usage;
  durationMs: number;
  stopReason: StopReason;
  error?: { kind: ModelErrorKind | "tool" | "loop"; message: string };
  /** Messages this run appended (assistant turns and tool results), in order. */
  messages: ModelMessage[];
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

export type BeforeToolCallDecision =
  | { action: "run" }
  | { action: "block"; reason: string }
  | { action: "stop"; reason: string };

export interface AfterToolCallOutcome {
  result: ToolResult;
  /** Text appended to the result the model sees (e.g. a loop-detection reminder). */
  reminder?: string;
  /** End the run after this call (hard loop cap), with this message as the error. */
  stop?: string;
}
