/**
 * The contract every ACP runtime keeps: what the control plane asks of a backend that drives an
 * external coding agent (Claude Code, Codex, Gemini CLI …). Only `ensureSession`, `runTurn`,
 * `cancel` and `close` are required; a light backend may leave the rest out. See docs/acp.md.
 */

export type AcpRuntimeSessionMode = "persistent" | "oneshot";
export type AcpRuntimePromptMode = "prompt" | "steer";

/** The `session/update` kind an event came from; open-ended because agents add kinds. */
export type AcpSessionUpdateTag =
  | "agent_message_chunk"
  | "agent_thought_chunk"
  | "tool_call"
  | "tool_call_update"
  | "usage_update"
  | "available_commands_update"
  | "current_mode_update"
  | "config_option_update"
  | "session_info_update"
  | "plan"
  | (string & {});

/**
 * One thing that happened in a turn. A turn's stream ends with exactly one `done` or one
 * `error`; everything before is progress. Runtimes never throw out of `runTurn`'s iterator:
 * failures are an `error` event.
 */
export type AcpRuntimeEvent =
  | { type: "text_delta"; text: string; stream?: "output" | "thought"; tag?: AcpSessionUpdateTag }
  | { type: "status"; text: string; tag?: AcpSessionUpdateTag; used?: number; size?: number }
  | { type: "tool_call"; text: string; tag?: AcpSessionUpdateTag; toolCallId?: string; status?: string; title?: string }
  | { type: "done"; stopReason?: string; usage?: AcpTurnUsage }
  | { type: "error"; message: string; code?: AcpErrorCode; retryable?: boolean };

export interface AcpTurnUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** Which agent process and which agent-side session a control-plane session is bound to. */
export interface AcpRuntimeHandle {
  sessionKey: string;
  backend: string;
  /** The configured agent id (e.g. "claude"). */
  agent: string;
  cwd: string;
  /** The agent's own session id (`session/new` / `session/load`). */
  backendSessionId: string;
  /** The agent process, while it lives. */
  pid?: number;
}

export interface AcpRuntimeEnsureInput {
  sessionKey: string;
  agent: string;
  mode: AcpRuntimeSessionMode;
  cwd: string;
  /** Load this agent-side session instead of creating one (fails when the agent cannot). */
  resumeSessionId?: string;
}

export interface AcpRuntimeTurnInput {
  handle: AcpRuntimeHandle;
  text: string;
  mode: AcpRuntimePromptMode;
  requestId: string;
  signal?: AbortSignal;
  /** How long the turn may run, and the setting that says so; none when left out or 0. */
  timeout?: AcpTurnTimeout;
}

export interface AcpTurnTimeout {
  seconds: number;
  /** The config key named when the turn is cut short. */
  setting: string;
}

export interface AcpRuntimeCapabilities {
  /** The agent serves `session/load`: a session survives a gateway restart. */
  loadSession: boolean;
  supportsImages: boolean;
  controls: ("session/set_mode" | "session/status")[];
}

export interface AcpRuntimeStatus {
  summary: string;
  backendSessionId?: string;
  pid?: number;
  details?: Record<string, unknown>;
}

export interface AcpRuntimeDoctorCheck {
  agent: string;
  ok: boolean;
  code?: AcpErrorCode;
  message: string;
  protocolVersion?: number;
  installCommand?: string;
}

export interface AcpRuntimeDoctorReport {
  ok: boolean;
  agents: AcpRuntimeDoctorCheck[];
}

export interface AcpRuntime {
  ensureSession(input: AcpRuntimeEnsureInput): Promise<AcpRuntimeHandle>;
  runTurn(input: AcpRuntimeTurnInput): AsyncIterable<AcpRuntimeEvent>;
  cancel(input: { handle: AcpRuntimeHandle; reason?: string }): Promise<void>;
  close(input: { handle: AcpRuntimeHandle; reason: string }): Promise<void>;
  getCapabilities?(input: { handle?: AcpRuntimeHandle }): Promise<AcpRuntimeCapabilities>;
  getStatus?(input: { handle: AcpRuntimeHandle }): Promise<AcpRuntimeStatus>;
  setMode?(input: { handle: AcpRuntimeHandle; mode: string }): Promise<void>;
  doctor?(): Promise<AcpRuntimeDoctorReport>;
}

/** Every failure a runtime reports, with what it means for the caller. */
export type AcpErrorCode =
  | "ACP_DISABLED"
  | "ACP_AGENT_NOT_ALLOWED"
  | "ACP_AGENT_UNKNOWN"
  | "ACP_COMMAND_NOT_FOUND"
  | "ACP_SPAWN_FAILED"
  | "ACP_INITIALIZE_FAILED"
  | "ACP_PROTOCOL_MISMATCH"
  | "ACP_SESSION_FAILED"
  | "ACP_RESUME_UNSUPPORTED"
  | "ACP_RESUME_FAILED"
  | "ACP_TURN_FAILED"
  | "ACP_TIMEOUT"
  | "ACP_AGENT_EXITED"
  | "ACP_PERMISSION_UNAVAILABLE"
  | "ACP_SESSION_STALE"
  | "ACP_SESSION_CLOSED"
  | "ACP_BUSY";

export class AcpRuntimeError extends Error {
  constructor(
    readonly code: AcpErrorCode,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = "AcpRuntimeError";
  }
}
