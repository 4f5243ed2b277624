/** The event families internal hooks hear about (docs/automation.md#internal-hooks). */
export type InternalHookEventType = "command" | "session" | "agent" | "gateway" | "message";

/**
 * What a handler receives: `async (event) => void`. Strings it pushes to `messages` are logged;
 * `{message, agentId?}` objects it pushes to `agentTurns` are run as agent turns once it returns.
 */
export interface InternalHookEvent {
  type: InternalHookEventType;
  action: string;
  sessionKey?: string;
  timestamp: number;
  messages: string[];
  agentTurns: HookAgentTurnRequest[];
  context: Record<string, unknown>;
}

/** An agent turn a hook asks for (the bundled boot-md hook runs BOOT.md this way). */
export interface HookAgentTurnRequest {
  message: string;
  agentId?: string;
}

/**
 * Runs the turns hooks ask for: each in the agent's own `hook:<hook name>` session, started
 * afresh, on the owner's behalf (only hooks the operator enabled run at all).
 */
export type HookAgentTurnRunner = (hookName: string, request: HookAgentTurnRequest) => void;

/**
 * Where the layers that see gateway events report them. Emitting never waits for a handler and
 * never fails: hooks run beside the gateway, not in its way.
 */
export interface InternalHookSink {
  emit(event: Pick<InternalHookEvent, "type" | "action" | "sessionKey" | "context">): void;
  /** True when an enabled hook listens to `type:action` (a caller then may wait for it). */
  listens?(type: InternalHookEventType, action: string): boolean;
  /**
   * For the one event whose handlers may change what happens (`agent:bootstrap`): runs the
   * listening hooks one after another, each within its time budget, and resolves to the
   * context the last one left (a failed or slow hook leaves it as it was).
   */
  transform?(event: Pick<InternalHookEvent, "type" | "action" | "sessionKey" | "context">): Promise<Record<string, unknown>>;
}
