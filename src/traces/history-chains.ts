import { createHash } from "node:crypto";
import type { HistoryMessage } from "../models/messages.js";
import { historyMessageHash, tracedMessage } from "./history-messages.js";
import type { TraceRedactor } from "./redaction.js";
import type { TraceHistory } from "./types.js";

/** A place in a stored conversation: a message after the place before it (none for the first). */
export interface HistoryNode {
  node: string;
  parent: string | null;
  message: string;
}

/** What the store must get for one trace's history: the places and message bodies it may not have. */
export interface HistoryRows {
  nodes: HistoryNode[];
  messages: { hash: string; body: string }[];
}

/** Sessions whose latest history is remembered; the others start their chain from its first message again. */
const MAX_SESSIONS = 256;
/** Message hashes remembered as stored; past that, bodies are sent again (the store keeps the first). */
const MAX_MESSAGES = 20_000;

/**
 * Stores a run's history as a chain: each message's place is named by the place before it and the
 * message (a hash of both), so a trace names its whole history by the last place, and a session's
 * next run, which resends the same messages plus a few, adds only the places of the new ones.
 * A session's previous history is kept (the same message objects, compared by identity, in one
 * array per session that each turn truncates and extends), so a turn hashes and writes only what
 * is new however long the conversation is. Message bodies are redacted and stored once per hash.
 */
export class HistoryChains {
  private readonly sessions = new Map<string, { messages: HistoryMessage[]; nodes: string[] }>();
  private readonly storedMessages = new Set<string>();

  chain(sessionKey: string, history: readonly HistoryMessage[], redactor: TraceRedactor): { history: TraceHistory; rows: HistoryRows } {
    const kept = this.sessions.get(sessionKey) ?? { messages: [], nodes: [] };
    const { messages, nodes } = kept;
    let same = 0;
    const limit = Math.min(messages.length, history.length);
    while (same < limit && messages[same] === history[same]) same += 1;
    messages.length = same;
    nodes.length = same;
    const rows: HistoryRows = { nodes: [], messages: [] };
    for (let i = same; i < history.length; i += 1) {
      const message = history[i]!;
      messages.push(message);
      const hash = historyMessageHash(message);
      const parent = i > 0 ? nodes[i - 1]! : null;
      const node = nodeId(parent, hash);
      nodes.push(node);
      rows.nodes.push({ node, parent, message: hash });
      if (this.storedMessages.has(hash)) continue;
      if (this.storedMessages.size >= MAX_MESSAGES) this.storedMessages.clear();
      this.storedMessages.add(hash);
      rows.messages.push({ hash, body: JSON.stringify(tracedMessage(message, redactor)) });
    }
    this.sessions.delete(sessionKey);
    this.sessions.set(sessionKey, kept);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return { history: { messages: history.length, ...(nodes.length > 0 ? { tip: nodes[nodes.length - 1]! } : {}) }, rows };
  }

  /** The store may have lost places or messages (retention, a failed write): everything is written again. */
  clear(): void {
    this.sessions.clear();
    this.storedMessages.clear();
  }
}

function nodeId(parent: string | null, message: string): string {
  return createHash("sha256")
    .update(`${parent ?? ""}:${message}`)
    .digest("hex")
    .slice(0, 32);
}
