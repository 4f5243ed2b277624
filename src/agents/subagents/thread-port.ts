import type { ConversationRun } from "../conversation-port.js";
import type { SpawnRefusal } from "./spawn-checks.js";

/**
 * What thread-bound sub-agents (`sessions_spawn` with `thread: true`) need from the chat
 * channels, stated here so this layer does not import them. The gateway wires it to its channel
 * manager and thread-binding store; without it every `thread: true` spawn is refused.
 */
export interface SubagentThreadPort {
  /**
   * Whether the chat `requesterSessionKey` talks in (its last route) can get a thread: a refusal
   * the model can act on when it has no chat, or its channel has no threads. Nothing is created.
   */
  check(requesterSessionKey: string): SpawnRefusal | undefined;
  /** Opens a thread titled `title` in that chat; a refusal when the platform says no. */
  open(requesterSessionKey: string, title: string): Promise<SubagentThread | SpawnRefusal>;
  /** Messages written in `thread` go to `childSessionKey` from now on. */
  bind(thread: SubagentThread, childSessionKey: string, label: string): void;
  /** A run of the child (its task, a steer) answers into its thread. */
  deliverRun(childSessionKey: string, run: ConversationRun): void;
  /** A reply of a child whose turns run elsewhere (an ACP agent) goes into its thread, once per `idempotencyKey`. */
  deliverText(thread: SubagentThread, text: string, idempotencyKey: string): void;
  /** The child ended (killed, reset, deleted, archived): its thread goes back to the chat's own session. */
  release(childSessionKey: string): void;
}

/** Where a thread-bound child talks: the route its replies take and inbound messages arrive on. */
export interface SubagentThread {
  channel: string;
  accountId: string;
  chatId: string;
  threadId: string;
}

/** Thread titles: the label, else the task's first non-empty line, at most this long. */
export const MAX_THREAD_TITLE_CHARS = 100;

export function threadTitle(task: string, label: string | undefined): string {
  const source =
    label?.trim() ||
    task
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ||
    "Sub-agent";
  return source.length > MAX_THREAD_TITLE_CHARS ? `${source.slice(0, MAX_THREAD_TITLE_CHARS - 1)}…` : source;
}
