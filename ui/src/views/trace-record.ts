/**
 * What `traces.list` and `traces.get` answer (docs/traces.md), declared here as the UI reads it:
 * the bundle takes no gateway code. Every text in it is untrusted (model output, tool results).
 */

export interface TraceUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface TraceSummary {
  runId: string;
  sessionKey: string;
  agentId: string;
  source: string;
  startedAt: number;
  durationMs: number;
  outcome: string;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  toolCalls: number;
}

export interface FailoverAttempt {
  ref: string;
  profileId?: string;
  reason: string;
  message: string;
}

export interface ModelCall {
  provider?: string;
  model?: string;
  authProfile?: string;
  startedAt: number;
  latencyMs: number;
  ttftMs?: number;
  usage?: TraceUsage;
  stopReason?: string;
  error?: string;
  failover: FailoverAttempt[];
}

export interface ToolApproval {
  command: string;
  policy: string;
  answer?: string;
  allowed: boolean;
  reason?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
  startedAt: number;
  durationMs?: number;
  isError?: boolean;
  resultChars?: number;
  resultHead?: string;
  decision: string;
  decisionReason?: string;
  approval?: ToolApproval;
}

export interface Compaction {
  reason: string;
  ok: boolean;
  tokensBefore?: number;
  tokensAfter?: number;
}

export interface TraceRecord {
  runId: string;
  sessionKey: string;
  agentId: string;
  source: string;
  startedAt: number;
  endedAt: number;
  durationMs: number;
  outcome: string;
  stopReason?: string;
  error?: string;
  model?: string;
  systemPromptHash?: string;
  systemPromptChars?: number;
  tools?: string[];
  /** How many messages were sent before the run's input (traces.get's `history` has them). */
  history?: { messages: number; log?: string; runs?: [number, number][] };
  input: string[];
  modelCalls: ModelCall[];
  toolCalls: ToolCall[];
  thinking: string[];
  output: string;
  usage: TraceUsage;
  compactions: Compaction[];
}

/** A history message as the trace stores it: texts redacted, images as type and size. */
export interface HistoryMessage {
  role: string;
  content: string | { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown; mimeType?: string }[];
  toolName?: string;
}

export interface TraceDetail {
  trace: TraceRecord;
  systemPrompt?: string;
  /** The conversation sent before the run's input, in order. */
  history?: HistoryMessage[];
}
