import type { TurnSettings } from "../agents/conversation-port.js";
import { sameTurnSettings } from "../sessions/lanes/index.js";

/** A message the runtime (not a person) sent to a busy session: a sub-agent announcement, an inter-session message. */
export interface InternalMessage {
  runId: string;
  agentId: string;
  text: string;
  /** Announcements that wait together may share one turn; inter-session messages never merge. */
  mergeable: boolean;
  senderIsOwner: boolean;
  /** Its own settings for the turn that answers it (a heartbeat's model, lightContext). */
  settings?: TurnSettings;
}

/** What separates merged messages in one turn's prompt: a `---` rule between them. */
export const MERGED_MESSAGE_SEPARATOR = "\n\n---\n\n";

/**
 * Internal messages waiting for their session, kept apart from the user's inbox: they are never
 * steered into a user's turn, merged with user messages, or dropped or summarized by the queue
 * cap. Each waits for a turn of its own; mergeable ones that wait together run as one turn when
 * their turn settings are the same.
 */
export class InternalTurnQueue {
  private readonly waiting = new Map<string, InternalMessage[]>();

  add(sessionKey: string, message: InternalMessage): void {
    const list = this.waiting.get(sessionKey);
    if (list) list.push(message);
    else this.waiting.set(sessionKey, [message]);
  }

  pendingCount(sessionKey: string): number {
    return this.waiting.get(sessionKey)?.length ?? 0;
  }

  /** The next turn's messages: the oldest, plus the mergeable ones with its settings right behind a mergeable oldest. */
  take(sessionKey: string): InternalMessage[] | undefined {
    const list = this.waiting.get(sessionKey);
    if (!list?.length) return undefined;
    const oldest = list[0]!;
    let count = 1;
    if (oldest.mergeable) while (count < list.length && list[count]!.mergeable && sameTurnSettings(list[count]!.settings, oldest.settings)) count += 1;
    const taken = list.splice(0, count);
    if (list.length === 0) this.waiting.delete(sessionKey);
    return taken;
  }

  /** Takes one waiting message out; true when it was waiting. */
  remove(sessionKey: string, runId: string): boolean {
    const list = this.waiting.get(sessionKey);
    const index = list?.findIndex((m) => m.runId === runId) ?? -1;
    if (index < 0) return false;
    list!.splice(index, 1);
    if (list!.length === 0) this.waiting.delete(sessionKey);
    return true;
  }

  clear(sessionKey: string): InternalMessage[] {
    const list = this.waiting.get(sessionKey) ?? [];
    this.waiting.delete(sessionKey);
    return list;
  }
}
