/** How `openclaw acp` maps IDE sessions onto gateway sessions; see docs/acp.md. */
export interface BridgeOptions {
  /** `--session`: every IDE session without its own `_meta.sessionKey` uses this gateway key. */
  defaultSessionKey?: string;
  /** `--session-label`: like `defaultSessionKey`, found by the label of an existing session. */
  defaultSessionLabel?: string;
  /** `--require-existing`: a key or label that names no existing session is an error. */
  requireExisting?: boolean;
  /** `--reset-session`: the gateway session is reset (new transcript) when the IDE opens it. */
  resetSession?: boolean;
  /** Prompts start with `[Working directory: <cwd>]` (default true; `--no-prefix-cwd`). */
  prefixCwd?: boolean;
  /** `--provenance`: what the bridge tells the gateway about where a prompt came from. */
  provenance?: ProvenanceMode;
  log?: (line: string) => void;
}

export const PROVENANCE_MODES = ["off", "meta", "meta+receipt"] as const;
export type ProvenanceMode = (typeof PROVENANCE_MODES)[number];

/** One gateway connection (the CLI passes the WebSocket `GatewayClient`). */
export type { GatewayConnection } from "../../infra/reconnecting-connection.js";

/** The gateway as the bridge needs it: calls, pushed events, and connection state changes. */
export interface BridgeGateway {
  call<T = unknown>(method: string, params: unknown, opts?: { timeoutMs?: number }): Promise<T>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  onConnectionChange(listener: (change: { connected: boolean; reason: string }) => void): () => void;
}

/** The fields of a `sessions.list` row the bridge reads. */
export interface ListedSessionRow {
  key: string;
  label?: string;
  displayName?: string;
  updatedAt?: number;
}

/** `chat.send`'s answer: a run started (maybe steered into one in flight) or a command's reply. */
export interface ChatSendAck {
  status?: string;
  queued?: string;
  reply?: unknown;
}

/** A gateway `chat` event as the bridge reads it; every field is checked before use. */
export interface ChatEventPayload {
  runId?: unknown;
  sessionKey?: unknown;
  state?: unknown;
  deltaText?: unknown;
  replace?: unknown;
  message?: unknown;
  stopReason?: unknown;
  errorMessage?: unknown;
  errorKind?: unknown;
}

/** A gateway `agent` event: a `thinking` delta or a `tool` phase. */
export interface AgentEventPayload {
  runId?: unknown;
  sessionKey?: unknown;
  stream?: unknown;
  data?: {
    delta?: unknown;
    toolCallId?: unknown;
    phase?: unknown;
    name?: string;
    args?: unknown;
    result?: unknown;
    partialResult?: unknown;
    isError?: unknown;
  };
}
