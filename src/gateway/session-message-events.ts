import { displayRow, isShown } from "../conversations/display-messages.js";
import type { AppendedMessage } from "../conversations/history-cache.js";
import { parseSessionKey } from "../sessions/keys/index.js";

/** How a `session.message` reaches the connections that subscribed to its session. */
export type SendToConnections = (event: string, payload: Record<string, unknown>, connIds: ReadonlySet<string>) => void;

/**
 * `sessions.messages.subscribe`: which connections follow which sessions' transcripts, and the
 * `session.message` event each gets for every message written there (a user message from any
 * client or channel, each assistant message, each tool result), as a `chat.history` row. Nothing
 * is built for a session no connection follows.
 */
export class SessionMessageEvents {
  private readonly bySession = new Map<string, Set<string>>();
  private readonly byConnection = new Map<string, Set<string>>();

  constructor(private readonly send: SendToConnections) {}

  subscribe(connId: string, sessionKey: string): void {
    let conns = this.bySession.get(sessionKey);
    if (!conns) this.bySession.set(sessionKey, (conns = new Set()));
    conns.add(connId);
    let sessions = this.byConnection.get(connId);
    if (!sessions) this.byConnection.set(connId, (sessions = new Set()));
    sessions.add(sessionKey);
  }

  unsubscribe(connId: string, sessionKey: string): void {
    const conns = this.bySession.get(sessionKey);
    conns?.delete(connId);
    if (conns?.size === 0) this.bySession.delete(sessionKey);
    const sessions = this.byConnection.get(connId);
    sessions?.delete(sessionKey);
    if (sessions?.size === 0) this.byConnection.delete(connId);
  }

  /** A closed connection follows nothing. */
  forget(connId: string): void {
    for (const sessionKey of this.byConnection.get(connId) ?? []) this.unsubscribe(connId, sessionKey);
  }

  /** Messages were written to `sessionKey`'s transcript: each shown one goes to its followers. */
  appended(sessionKey: string, appended: readonly AppendedMessage[], runId: string | null): void {
    const conns = this.bySession.get(sessionKey);
    if (!conns) return;
    const agentId = parseSessionKey(sessionKey).agentId;
    for (const { id, message } of appended) {
      if (!isShown(message)) continue;
      this.send("session.message", { sessionKey, agentId, message: displayRow(message, id), messageId: id, ...(runId ? { runId } : {}) }, conns);
    }
  }
}
