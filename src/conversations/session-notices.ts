import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { resolveAgentConfig } from "../agents/agent-config.js";
import { postCompactionMaxChars } from "../agents/context/context-limits.js";
import { postCompactionRefresh } from "../agents/context/post-compaction-context.js";
import { userTimeZone } from "../agents/context/user-time-zone.js";
import { resolveWorkspaceDir } from "../agents/context/workspace.js";
import { parseSessionKey } from "../sessions/keys/index.js";
import type { SessionStore } from "../sessions/store/index.js";
import type { SessionSystemEvent, SessionSystemEvents } from "../sessions/system-events/session-system-events.js";
import { withSystemEventLines } from "./system-event-lines.js";

export interface SessionNoticesDeps {
  stateDir: string;
  config(): OpenClawConfig;
  store: SessionStore;
  logger: Logger;
  /** Where notices wait; absent: none are queued or carried. */
  events?: SessionSystemEvents;
}

/** What a message that carries notices tells them when it is refused after it was written. */
export interface CarriedNotices {
  text: string;
  refused(): void;
}

const NOTHING_CARRIED = { refused: () => {} };

/**
 * The notices a session waits for (reactions in its chat, the rules brought back after a
 * compaction) and the message that carries them: in front of it as `System:` lines, leaving the
 * queue once that message is on disk, or waiting for the next one when it is refused or its write fails.
 */
export class SessionNotices {
  constructor(private readonly deps: SessionNoticesDeps) {}

  /** `message` with the session's waiting notices in front (none for a one-off session). */
  carry(sessionKey: string, message: string, oneOff: boolean): CarriedNotices {
    const events = this.deps.events;
    const carried = events && !oneOff ? events.take(sessionKey, this.deps.store.peek(sessionKey)?.sessionId) : [];
    if (carried.length === 0) return { text: message, ...NOTHING_CARRIED };
    return { text: withSystemEventLines(message, carried, this.deps.config()), ...this.settleWhenDurable(sessionKey, carried, events!) };
  }

  /**
   * After a compaction, the AGENTS.md sections named in `compaction.postCompactionSections` wait
   * for the session's next message (one refresh: a later compaction's replaces it). A failure is
   * logged: the compaction stands without it.
   */
  async compacted(sessionKey: string): Promise<void> {
    const { events, config: configOf, stateDir, store, logger } = this.deps;
    const config = configOf();
    const sections = config.agents.defaults.compaction?.postCompactionSections ?? [];
    if (!events || sections.length === 0) return;
    const agentId = parseSessionKey(sessionKey).agentId;
    try {
      const refresh = await postCompactionRefresh(resolveWorkspaceDir(config, agentId, stateDir, process.env), {
        sections,
        maxChars: postCompactionMaxChars(config, resolveAgentConfig(config, agentId)),
        now: new Date(),
        timeZone: userTimeZone(config),
      });
      if (refresh) await events.add(sessionKey, refresh, { contextKey: "post-compaction", sessionId: store.peek(sessionKey)?.sessionId, replace: true });
    } catch (err) {
      logger.warn({ sessionKey, err: (err as Error).message }, "post-compaction refresh not queued; the next message goes without it");
    }
  }

  private settleWhenDurable(sessionKey: string, carried: SessionSystemEvent[], events: SessionSystemEvents): { refused(): void } {
    let refused = false;
    this.deps.store.whenDurable(sessionKey).then(
      () => refused || events.settle(carried),
      () => refused || events.putBack(carried),
    );
    return {
      refused: () => {
        if (refused) return;
        refused = true;
        events.putBack(carried);
      },
    };
  }
}
