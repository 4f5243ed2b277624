import { randomUUID } from "node:crypto";
import path from "node:path";
import { KeyedJsonLinesLog } from "../../infra/keyed-json-lines-log.js";

/** One notice waiting for its session's next message (a reaction someone added, for now). */
export interface SessionSystemEvent {
  id: string;
  sessionKey: string;
  /** The session's id when the notice was queued; a session started over since then does not get it. */
  sessionId?: string;
  text: string;
  /** What the notice is about: a second notice with the same key and text is not queued. */
  contextKey: string;
  at: number;
}

/** The most notices one session keeps waiting; the oldest leave first. */
export const MAX_EVENTS_PER_SESSION = 20;

/** A notice no message carried within this long is dropped: news that old is no longer news. */
export const MAX_EVENT_AGE_MS = 7 * 24 * 60 * 60_000;

type Line = ({ op: "event" } & SessionSystemEvent) | { op: "done"; ids: string[] };

/**
 * Notices for sessions, in `<state>/sessions/system-events.jsonl`: queued by what happens around a
 * conversation (a reaction in its chat), carried into that session's next message as `System:`
 * lines. A notice is on disk before `add` resolves and leaves once the message that carried it is
 * (`settle`); one carried by a message a crash cut short comes again with the next.
 */
export class SessionSystemEvents {
  private readonly log: KeyedJsonLinesLog<SessionSystemEvent, Line>;
  /** Taken by a message not on disk yet: kept in the file (and its compactions), offered to no other message. */
  private readonly carried = new Set<string>();

  constructor(
    stateDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.log = new KeyedJsonLinesLog<SessionSystemEvent, Line>(
      path.join(path.resolve(stateDir), "sessions", "system-events.jsonl"),
      {
        replay: (entries, line) => applyLine(entries, line as Line),
        prune: (entries) => {
          const oldest = this.now() - MAX_EVENT_AGE_MS;
          for (const [id, event] of entries) if (event.at < oldest && !this.carried.has(id)) entries.delete(id);
        },
        snapshot: (event) => ({ op: "event", ...event }),
      },
      { factor: 2, minLines: 500 },
    );
  }

  /**
   * Queues `text` for `sessionKey`, durable when the promise resolves. False, queueing nothing,
   * when the same notice (key and text) already waits there. `replace`: a notice with the same
   * key waiting there leaves first (the newer says it all).
   */
  async add(sessionKey: string, text: string, options: { contextKey: string; sessionId?: string; replace?: boolean }): Promise<boolean> {
    let waiting = this.waitingFor(sessionKey);
    if (waiting.some((event) => event.contextKey === options.contextKey && event.text === text)) return false;
    const replaced = options.replace ? waiting.filter((event) => event.contextKey === options.contextKey) : [];
    if (replaced.length > 0) {
      this.write({ op: "done", ids: replaced.map((e) => e.id) });
      waiting = waiting.filter((event) => !replaced.includes(event));
    }
    const event: SessionSystemEvent = {
      id: randomUUID(),
      sessionKey,
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      text,
      contextKey: options.contextKey,
      at: this.now(),
    };
    const overflow = waiting.slice(0, Math.max(0, waiting.length + 1 - MAX_EVENTS_PER_SESSION));
    if (overflow.length > 0) this.write({ op: "done", ids: overflow.map((e) => e.id) });
    this.write({ op: "event", ...event });
    await this.log.whenDurable();
    return true;
  }

  /**
   * Takes the notices waiting for `sessionKey`, oldest first: the caller carries them in a message
   * and calls `settle` once that is on disk (or `putBack` when it was not written). Notices queued
   * for an earlier session under the same key (`sessionId` differs), and those older than
   * `MAX_EVENT_AGE_MS`, are dropped.
   */
  take(sessionKey: string, sessionId: string | undefined): SessionSystemEvent[] {
    const waiting = this.waitingFor(sessionKey);
    if (waiting.length === 0) return [];
    const oldest = this.now() - MAX_EVENT_AGE_MS;
    const stale = waiting.filter((event) => (event.sessionId !== undefined && event.sessionId !== sessionId) || event.at < oldest);
    if (stale.length > 0) this.write({ op: "done", ids: stale.map((e) => e.id) });
    const taken = waiting.filter((event) => !stale.includes(event));
    for (const event of taken) this.carried.add(event.id);
    return taken;
  }

  /** The message that carried these notices is on disk: they leave the queue for good. */
  settle(events: readonly SessionSystemEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) this.carried.delete(event.id);
    this.write({ op: "done", ids: events.map((e) => e.id) });
  }

  /** The message that was to carry these notices was not written: they wait for the next one. */
  putBack(events: readonly SessionSystemEvent[]): void {
    for (const event of events) this.carried.delete(event.id);
  }

  /** The notices waiting for `sessionKey` and not carried by a message yet, oldest first. */
  waitingFor(sessionKey: string): SessionSystemEvent[] {
    // Every message of every session asks: with nothing queued anywhere (the usual case), no walk.
    if (this.log.entries.size === 0) return [];
    const events: SessionSystemEvent[] = [];
    for (const event of this.log.entries.values()) if (event.sessionKey === sessionKey && !this.carried.has(event.id)) events.push(event);
    return events;
  }

  close(): void {
    this.log.close();
  }

  private write(line: Line): void {
    this.log.append(line);
    applyLine(this.log.entries, line);
    this.log.compactIfDue();
  }
}

function applyLine(entries: Map<string, SessionSystemEvent>, line: Line): void {
  if (line.op === "event" && typeof line.id === "string" && typeof line.sessionKey === "string" && typeof line.text === "string") {
    entries.set(line.id, {
      id: line.id,
      sessionKey: line.sessionKey,
      ...(typeof line.sessionId === "string" ? { sessionId: line.sessionId } : {}),
      text: line.text,
      contextKey: String(line.contextKey ?? ""),
      at: Number(line.at) || 0,
    });
  } else if (line.op === "done" && Array.isArray(line.ids)) {
    for (const id of line.ids) entries.delete(String(id));
  }
}
