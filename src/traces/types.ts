import type { AgentEvent, RunResult, Usage } from "../agents/types.js";

/**
 * The contracts of run traces (docs/traces.md): what a run's trace holds, the port the
 * conversation core and the ACP children record through, and the summary readers list.
 */

/** Where a run came from. */
export type TraceSource = "chat" | "channel" | "http" | "subagent" | "acp" | "cron" | "internal";

/** One model call: a `message_start` … `message_end` of the loop, with the failover attempts before it answered. */
export interface ModelCallTrace {
  provider?: string;
  model?: string;
  /** The auth profile (key) that answered, when the failover knows it. */
  authProfile?: string;
  startedAt: number;
  latencyMs: number;
  /** Time to the first streamed text or thinking; absent when the call streamed neither (tool calls only). */
  ttftMs?: number;
  usage?: Usage;
  stopReason?: string;
  error?: string;
  /** Keys or models that failed before this call was answered (or before it failed for good). */
  failover: FailoverAttemptTrace[];
}

export interface FailoverAttemptTrace {
  ref: string;
  profileId?: string;
  reason: string;
  message: string;
}

/** One tool call, from its start to its result. */
export interface ToolCallTrace {
  id: string;
  name: string;
  args: unknown;
  startedAt: number;
  durationMs?: number;
  isError?: boolean;
  /** Characters of the result's text the model saw. */
  resultChars?: number;
  /** The first characters of that text. */
  resultHead?: string;
  /** `allowed` unless a policy hook blocked the call or stopped the run there. */
  decision: "allowed" | "blocked" | "stopped";
  decisionReason?: string;
  /** The exec policy's verdict and, when it asked, the operator's answer. */
  approval?: ApprovalTrace;
}

/** A tool call without its arguments, result or approval: what an audit record says of it. */
export type ToolCallOutline = Pick<ToolCallTrace, "id" | "name" | "startedAt" | "durationMs" | "isError" | "decision">;

export interface ApprovalTrace {
  command: string;
  policy: "allow" | "deny" | "ask";
  /** The operator's answer when the policy asked (`allow-once`, `allow-always`, `deny`, `timeout`). */
  answer?: string;
  allowed: boolean;
  reason?: string;
}

export type TraceOutcome = "ok" | "error" | "aborted" | "timeout";

/** One run, complete. Text fields are redacted before the trace is stored or exported. */
export interface TraceRecord {
  runId: string;
  sessionKey: string;
  agentId: string;
  source: TraceSource;
  startedAt: number;
  endedAt: number;
  durationMs: number;
  outcome: TraceOutcome;
  stopReason?: string;
  error?: string;
  /** The model that answered last (`provider/model`). */
  model?: string;
  /** sha256 of the system prompt; its text is stored once per hash. */
  systemPromptHash?: string;
  systemPromptChars?: number;
  /** What someone changed in the prompt, without the clock or the agent's own memory (docs/traces.md#review-queue). */
  promptVersion?: string;
  tools?: string[];
  /**
   * The conversation the run's model calls got before its input (`traces.get` returns its
   * messages as `history`). Absent for ACP children (the external agent keeps its own).
   */
  history?: TraceHistory;
  /** The messages the run was given: the user's message (and steering that joined it). */
  input: string[];
  modelCalls: ModelCallTrace[];
  toolCalls: ToolCallTrace[];
  thinking: string[];
  output: string;
  usage: Usage;
  /** Compactions that ran during the run. */
  compactions: { reason: string; ok: boolean; tokensBefore?: number; tokensAfter?: number }[];
}

/**
 * How a trace names its history: how many messages, and where they are in its session's log of
 * messages (history-log.ts): runs of consecutive numbers, in the order sent; none when empty.
 */
export interface TraceHistory {
  messages: number;
  log?: string;
  runs?: [number, number][];
}

/** What `traces.list` returns per run. */
export interface TraceSummary {
  runId: string;
  sessionKey: string;
  agentId: string;
  source: TraceSource;
  startedAt: number;
  durationMs: number;
  outcome: TraceOutcome;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  toolCalls: number;
}

export interface TraceStart {
  runId: string;
  sessionKey: string;
  agentId: string;
  source: TraceSource;
  /** The message that started the run. */
  input: string;
}

/** What a finished run reports to its trace. */
export interface TraceEnd {
  /** `messages`: what the run appended; the user messages among them (steering) join the trace's input. */
  result: Pick<RunResult, "payloads" | "usage" | "stopReason" | "error"> & { model?: string; messages?: RunResult["messages"] };
  outcome: TraceOutcome;
}

/** An ACP agent's turn, as its trace sees it. */
export type ExternalTraceEvent = { type: "text"; text: string; thought?: boolean } | { type: "tool"; toolCallId?: string; title?: string; status?: string; text: string };

/**
 * The port runs are recorded through. `begin` returns undefined when tracing is off; the handle
 * only collects (a push per event), the trace is built and written after the run ended.
 */
export interface RunTracer {
  begin(start: TraceStart): RunTraceHandle | undefined;
}

export interface RunTraceHandle {
  /** Events of the embedded loop (and of the turn around it). */
  event(event: AgentEvent): void;
  /** Events of an external (ACP) agent's turn. */
  external(event: ExternalTraceEvent): void;
  end(end: TraceEnd): void;
}
