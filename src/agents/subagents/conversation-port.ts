import type { InputProvenance } from "../../sessions/provenance.js";
import type { RunResult, TranscriptMessage } from "../types.js";

/**
 * What sub-agents and agent-to-agent messaging need from the gateway's conversation service,
 * stated here so this layer does not import the gateway (dependencies point inward). The
 * gateway's `ConversationService` satisfies it as is; unit tests use a small fake.
 */

export interface PortRun {
  runId: string;
  sessionKey: string;
  status: string;
  acceptedAt: number;
  startedAt?: number;
  endedAt?: number;
  result?: Pick<RunResult, "payloads" | "usage" | "durationMs" | "stopReason" | "error">;
  /** Resolves when the run ended, whatever the outcome. */
  done: Promise<PortRun>;
}

export interface PortSubmitInput {
  message: string;
  idempotencyKey: string;
  sessionKey: string;
  method: "agent";
  provenance: InputProvenance;
  /** Never steered into, merged with or dropped by the session's user queue; waits for its own turn. */
  internal: { mergeable?: boolean };
  /** Extra fields for the message's transcript line (e.g. `internalEvents`). */
  transcriptFields?: Record<string, unknown>;
  /** The sender's privileges: a message from another session never runs with more than its sender had. */
  senderIsOwner?: boolean;
}

export type PortSubmitOutcome =
  | { kind: "accepted"; run: PortRun }
  | { kind: "duplicate"; runId: string; status: string; run?: PortRun }
  | { kind: "rejected"; notice: string }
  | { kind: "command" };

export interface ConversationPort {
  /** Resolves once the message is durable (its transcript line and idempotency record). */
  submit(input: PortSubmitInput): Promise<PortSubmitOutcome>;
  /** Aborts the session's active and queued runs; returns their ids. */
  abort(sessionKey: string, runId?: string): string[];
  readonly runs: {
    get(runId: string): PortRun | undefined;
    /** Unfinished runs of the session (running or waiting for their turn). */
    activeFor(sessionKey: string): PortRun[];
  };
  history(sessionKey: string): readonly TranscriptMessage[];
}

/** The visible text a finished run produced (empty for NO_REPLY or no text). */
export function runReplyText(run: PortRun): string {
  return (run.result?.payloads ?? []).map((p) => p.text).join("\n\n").trim();
}
