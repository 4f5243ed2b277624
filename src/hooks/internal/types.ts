/** The event families internal hooks hear about (docs/automation.md#internal-hooks). */
export type InternalHookEventType = "command" | "session" | "agent" | "gateway" | "message";

/** What a handler receives: `async (event) => void`. Strings it pushes to `messages` are logged. */
export interface InternalHookEvent {
  type: InternalHookEventType;
  action: string;
  sessionKey?: string;
  timestamp: number;
  messages: string[];
  context: Record<string, unknown>;
}

/**
 * Where the layers that see gateway events report them. Emitting never waits for a handler and
 * never fails: hooks run beside the gateway, not in its way.
 */
export interface InternalHookSink {
  emit(event: Pick<InternalHookEvent, "type" | "action" | "sessionKey" | "context">): void;
}
