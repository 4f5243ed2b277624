import type { SessionStore } from "../store/index.js";
import { nextProgressCard, visibleProgressCard, type ProgressCard, type ProgressCardContent } from "./progress-card.js";

/** A write that cannot be stored: the session is missing, not kept, or belongs to another agent. */
export class ProgressCardRefusal extends Error {}

/**
 * The sessions' progress cards, kept on their `sessions.json` entries. A write is on disk before
 * it resolves (the index is written at once and fsynced, as a chat route is), so an answered
 * write survives even a kill -9; reads come from memory. `onChanged` hears every stored write.
 */
export class ProgressCardStore {
  constructor(
    private readonly deps: {
      sessions: SessionStore;
      onChanged: (sessionKey: string, card: ProgressCard | null) => void;
      now?: () => number;
    },
  ) {}

  /** The session's card; null when it has none (never written, cleared, or no such session). */
  read(sessionKey: string): ProgressCard | null {
    return visibleProgressCard(this.deps.sessions.peek(sessionKey)?.progressCard);
  }

  /** Whether a card can be kept for the session: a one-off session is never kept, so it has none. */
  keeps(sessionKey: string): boolean {
    return !this.deps.sessions.isOneOff(sessionKey);
  }

  /**
   * Replaces the card of `agentId`'s session `sessionKey` with checked content (none: clears it);
   * resolves with the card now shown once it is durable. Clearing a session that shows no card
   * writes nothing. Throws ProgressCardRefusal for a write that has nowhere to go.
   */
  async write(sessionKey: string, agentId: string, content: ProgressCardContent): Promise<ProgressCard | null> {
    const { sessions } = this.deps;
    const entry = sessions.peek(sessionKey);
    if (!entry) throw new ProgressCardRefusal(`session not found: ${sessionKey}`);
    if (entry.agentId !== agentId) throw new ProgressCardRefusal(`session ${sessionKey} belongs to agent "${entry.agentId}", not "${agentId}"`);
    if (!this.keeps(sessionKey)) throw new ProgressCardRefusal("this session is a one-off request that is not kept, so it has no progress card");
    const clearing = content.markdown === undefined && content.steps === undefined;
    if (clearing && visibleProgressCard(entry.progressCard) === null) return null;
    const stored = nextProgressCard(entry.progressCard, content, (this.deps.now ?? Date.now)());
    sessions.patch(sessionKey, { progressCard: stored }, { durable: true });
    await sessions.whenDurable(sessionKey);
    const card = visibleProgressCard(stored);
    this.deps.onChanged(sessionKey, card);
    return card;
  }
}
