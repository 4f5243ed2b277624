import type { TranscriptMessage } from "../agents/types.js";

/**
 * A control request for a session's running turn (a progress card refresh). The running turn
 * takes it at its next model call; its text is built then, from what it asks about as it
 * stands. `text` returns undefined when there is nothing left to ask (the card was cleared).
 */
export interface ControlRequest {
  runId: string;
  /** Who asks, as the transcript's provenance names it. */
  source: ControlSource;
  text(): string | undefined;
  /** Called once, when the running turn takes it. */
  onTaken?(): void;
}

export interface ControlSource {
  method: string;
  sourceTool: string;
}

/** A control request as a running turn takes it. */
export interface TakenControlRequest {
  runId: string;
  source: ControlSource;
  text: string;
}

/**
 * Per session, the control requests waiting for its running turn. A turn's loop opens the
 * session's slot while it may still call the model and closes it when the loop is over. A request
 * is accepted only while the slot is open; one the turn did not take is withdrawn by whoever
 * offered it, who then runs it another way. Control requests are not user messages: they join
 * no run, skip no tool call and are shown to no client.
 */
export class ControlSteering {
  private readonly open = new Set<string>();
  private readonly waiting = new Map<string, ControlRequest[]>();

  /** The session's turn loop started: it may call the model again. */
  opened(sessionKey: string): void {
    this.open.add(sessionKey);
  }

  /** The session's turn loop is over: it calls the model no more. */
  closed(sessionKey: string): void {
    this.open.delete(sessionKey);
  }

  /** Hands `request` to the session's running turn; false when no turn loop is running. */
  offer(sessionKey: string, request: ControlRequest): boolean {
    if (!this.open.has(sessionKey)) return false;
    const list = this.waiting.get(sessionKey) ?? [];
    list.push(request);
    this.waiting.set(sessionKey, list);
    return true;
  }

  /** The texts of the session's waiting requests, taken now by its running turn (empty requests are dropped). */
  take(sessionKey: string): TakenControlRequest[] {
    const list = this.waiting.get(sessionKey);
    if (!list) return [];
    this.waiting.delete(sessionKey);
    const taken: TakenControlRequest[] = [];
    for (const request of list) {
      request.onTaken?.();
      const text = request.text();
      if (text !== undefined) taken.push({ runId: request.runId, source: request.source, text });
    }
    return taken;
  }

  /** Takes `request` back if no turn took it; true when it was still waiting. */
  withdraw(sessionKey: string, request: ControlRequest): boolean {
    const list = this.waiting.get(sessionKey);
    const at = list?.indexOf(request) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.waiting.delete(sessionKey);
    return true;
  }
}

/**
 * A taken control request as the transcript keeps it: input for the model, not a person's
 * message (`display: false` keeps it out of chat history, `session.message` and previews).
 */
export function controlSteeringMessage(request: TakenControlRequest): TranscriptMessage & { timestamp: number } {
  return {
    role: "user",
    content: request.text,
    timestamp: Date.now(),
    idempotencyKey: request.runId,
    provenance: { kind: "internal_system", ...request.source },
    display: false,
  };
}
