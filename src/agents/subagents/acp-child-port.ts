import type { SpawnRefusal } from "./spawn-checks.js";

/**
 * What sub-agents need to run a child on an external ACP agent (`sessions_spawn` with
 * `runtime: "acp"`), stated here so this layer does not import the ACP control plane above it.
 * The gateway provides it; without it such spawns are refused.
 */
export interface AcpChildPort {
  /** Checks the request and durably records the ACP session; nothing starts yet. */
  prepare(input: AcpChildPrepareInput): AcpChildPrepared | SpawnRefusal;
  /** Runs one turn in the background (`steer` cancels the running one first), cut short after `timeoutSeconds` when given. */
  run(input: { sessionKey: string; text: string; mode: "prompt" | "steer"; streamToParent?: string; timeoutSeconds?: number }): AcpChildRun;
  /** Cancels the running turn and ends the session and its process for good. */
  close(sessionKey: string, reason: string): void;
}

export interface AcpChildPrepareInput {
  requesterSessionKey: string;
  /** The ACP agent (`claude`, `codex` …); default `acp.defaultAgent`. */
  agentId?: string;
  /** Relative to the requester's workspace; default the workspace itself. */
  cwd?: string;
  workspaceDir: string;
  persistent: boolean;
  resumeSessionId?: string;
  label?: string;
}

export interface AcpChildPrepared {
  sessionKey: string;
  agent: string;
  cwd: string;
}

export interface AcpChildRunResult {
  status: "ok" | "error" | "timeout" | "aborted";
  /** The agent's reply to this turn. */
  text: string;
  error?: string;
  durationMs: number;
  usage?: { input: number; output: number };
}

export interface AcpChildRun {
  done: Promise<AcpChildRunResult>;
}
