import { randomUUID } from "node:crypto";
import type { HistoryMessage } from "../models/messages.js";
import { historyMessageHash, type TracedMessage } from "./history-messages.js";
import type { TraceHistory } from "./types.js";

/** A message's place in a session's log: the log, its number there, and the message's hash. */
export interface HistoryLogEntry {
  log: string;
  seq: number;
  message: string;
}

/** What the store must get for one trace's history: the log entries and message bodies it may not have. */
export interface HistoryRows {
  entries: HistoryLogEntry[];
  messages: { hash: string; body: string }[];
}

/** Sessions whose log is remembered; a session seen again after that starts a new log. */
const MAX_SESSIONS = 256;

interface SessionLog {
  id: string;
  next: number;
  /** Each message object's number in the log: a turn resends the same objects. */
  seqs: WeakMap<object, number>;
}

/**
 * Numbers every message a session's runs were sent, in the order first sent, in a log per
 * session (per gateway process: a new process starts new logs). A trace names its history as
 * runs of consecutive numbers: a conversation window that grows at its end, and slides at its
 * start once it fills its budget, is one run however long it is, so a turn adds only the entries
 * of its new messages and a few numbers to its trace. Message bodies are redacted and stored
 * once per hash.
 *
 * The store trims a log only below the lowest number its remaining traces use, and a session's
 * next window never reaches below its previous one (windows grow at the end and slide forward;
 * a changed message is a new object, so a new number): numbers a session goes on using stay
 * stored as long as its latest trace does. A log with no trace left is forgotten (`forget`).
 */
export class HistoryLogs {
  private readonly sessions = new Map<string, SessionLog>();

  /** `traced`: a message as the trace stores it, redacted (tracedMessage, or the export's cache of it). */
  record(sessionKey: string, history: readonly HistoryMessage[], traced: (message: HistoryMessage) => TracedMessage): { history: TraceHistory; rows: HistoryRows } {
    const rows: HistoryRows = { entries: [], messages: [] };
    if (history.length === 0) return { history: { messages: 0 }, rows };
    const log = this.logOf(sessionKey);
    const runs: [number, number][] = [];
    for (const message of history) {
      let seq = log.seqs.get(message);
      if (seq === undefined) {
        seq = log.next++;
        log.seqs.set(message, seq);
        // New to the log, so most likely new to the store (which keeps the body it has).
        const hash = historyMessageHash(message);
        rows.entries.push({ log: log.id, seq, message: hash });
        rows.messages.push({ hash, body: JSON.stringify(traced(message)) });
      }
      const last = runs[runs.length - 1];
      if (last && last[1] === seq - 1) last[1] = seq;
      else runs.push([seq, seq]);
    }
    return { history: { messages: history.length, log: log.id, runs }, rows };
  }

  /** A write failed: what the logs hold may not be stored, so every session starts a new log. */
  clear(): void {
    this.sessions.clear();
  }

  /** Logs no stored trace uses any more (the store deleted their entries): their sessions start new ones. */
  forget(logs: readonly string[]): void {
    if (logs.length === 0) return;
    const gone = new Set(logs);
    for (const [sessionKey, log] of this.sessions) if (gone.has(log.id)) this.sessions.delete(sessionKey);
  }

  private logOf(sessionKey: string): SessionLog {
    let log = this.sessions.get(sessionKey);
    if (log) this.sessions.delete(sessionKey);
    else log = { id: randomUUID(), next: 0, seqs: new WeakMap() };
    this.sessions.set(sessionKey, log);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return log;
  }
}
