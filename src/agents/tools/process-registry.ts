import type { ProcessSession } from "./process-session.js";

export interface ProcessRegistryOptions {
  /** How long a finished session stays readable, unless it started with its own (`tools.exec.cleanupMs`): 30 min. */
  finishedTtlMs?: number;
  /** At most this many finished sessions are kept; the oldest go first. */
  maxFinished?: number;
  now?: () => number;
}

const DEFAULT_FINISHED_TTL_MS = 30 * 60_000;
const DEFAULT_MAX_FINISHED = 50;

/** The conversation asking: an agent's session (docs/security.md, "The process tool"). */
export interface ProcessOwner {
  agentId: string;
  /** Absent for a caller outside any session: it sees only sessions started outside one too. */
  sessionKey?: string;
}

function ownedBy(session: ProcessSession, owner: ProcessOwner | undefined): boolean {
  if (!owner) return true;
  return (session.agentId === undefined || session.agentId === owner.agentId) && (session.sessionKey === undefined || session.sessionKey === owner.sessionKey);
}

/**
 * Background shell sessions of one gateway process, in memory: exec hands a command over when it
 * is started with `background` or outlives `yieldMs`, and the process tool reads and kills them.
 * Output buffers are capped by the sessions themselves. Finished sessions are pruned lazily on
 * every access, so the registry needs no timer of its own.
 */
export class ProcessRegistry {
  private readonly sessions = new Map<string, ProcessSession>();
  private readonly finishedTtlMs: number;
  private readonly maxFinished: number;
  private readonly now: () => number;
  private readonly finishListeners = new Set<(session: ProcessSession) => void>();

  constructor(options: ProcessRegistryOptions = {}) {
    this.finishedTtlMs = options.finishedTtlMs ?? DEFAULT_FINISHED_TTL_MS;
    this.maxFinished = options.maxFinished ?? DEFAULT_MAX_FINISHED;
    this.now = options.now ?? Date.now;
  }

  adopt(session: ProcessSession): void {
    this.prune();
    this.sessions.set(session.id, session);
    void session.finished.then(() => {
      for (const listener of this.finishListeners) listener(session);
    });
  }

  /** Called when a background session ends (the heartbeat wakes on it); returns the unsubscribe. */
  onFinished(listener: (session: ProcessSession) => void): () => void {
    this.finishListeners.add(listener);
    return () => this.finishListeners.delete(listener);
  }

  /** A session by id; with `owner`, only if that conversation started it. */
  get(sessionId: string, owner?: ProcessOwner): ProcessSession | undefined {
    this.prune();
    const session = this.sessions.get(sessionId);
    return session && ownedBy(session, owner) ? session : undefined;
  }

  /** Sessions oldest first; with `owner`, only those that conversation started. */
  list(owner?: ProcessOwner): ProcessSession[] {
    this.prune();
    return [...this.sessions.values()].filter((session) => ownedBy(session, owner));
  }

  /** Kills every running session: for gateway shutdown. */
  killAll(): void {
    for (const session of this.sessions.values()) session.kill("killed");
  }

  private prune(): void {
    const now = this.now();
    const finished: ProcessSession[] = [];
    for (const session of this.sessions.values()) {
      if (session.endedAt === null) continue;
      if (now - session.endedAt > (session.completion.retainMs ?? this.finishedTtlMs)) this.sessions.delete(session.id);
      else finished.push(session);
    }
    // Oldest first by finishing order: wall-clock endedAt ties within a millisecond (and can step back).
    finished.sort((a, b) => a.finishOrder - b.finishOrder);
    for (const session of finished.slice(0, Math.max(0, finished.length - this.maxFinished))) {
      this.sessions.delete(session.id);
    }
  }
}
