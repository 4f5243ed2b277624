import { randomUUID } from "node:crypto";
import path from "node:path";
import { KeyedJsonLinesLog } from "../../infra/keyed-json-lines-log.js";

/** A system event waiting for its agent's next heartbeat. */
export interface PendingEvent {
  id: string;
  agentId: string;
  text: string;
  /** Queued by `wake {mode: "now"}`: the beat is owed at once, also after a restart. */
  now: boolean;
  at: number;
}

/** How long a wake's idempotency key keeps a repeat of it from queueing its event again. */
export const WAKE_KEY_TTL_MS = 24 * 60 * 60_000;

type Entry = { kind: "event"; event: PendingEvent } | { kind: "key"; at: number };
type Line =
  | { op: "event"; id: string; agentId: string; text: string; now: boolean; at: number; key?: string }
  | { op: "key"; key: string; at: number }
  | { op: "done"; ids: string[] };

const eventSlot = (id: string) => `event:${id}`;
const keySlot = (key: string) => `key:${key}`;

/**
 * The heartbeat's queue of system events, in `<state>/heartbeat/pending-events.jsonl`. An event
 * is on disk (fsynced) before `add` returns, so a wake or a cron run acknowledged before a crash
 * still reaches the next beat; it leaves once a beat that carried it has ended. A wake's
 * idempotency key is written in the same line as its event and kept for `WAKE_KEY_TTL_MS`, so a
 * repeat of it after a restart queues nothing.
 */
export class PendingSystemEvents {
  private readonly log: KeyedJsonLinesLog<Entry, Line>;

  constructor(
    stateDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.log = new KeyedJsonLinesLog<Entry, Line>(
      path.join(path.resolve(stateDir), "heartbeat", "pending-events.jsonl"),
      {
        replay: (entries, line) => applyLine(entries, line as Line),
        prune: (entries) => {
          const oldest = this.now() - WAKE_KEY_TTL_MS;
          for (const [slot, entry] of entries) if (entry.kind === "key" && entry.at < oldest) entries.delete(slot);
        },
        snapshot: (entry, slot) => (entry.kind === "event" ? { op: "event", ...entry.event } : { op: "key", key: slot.slice("key:".length), at: entry.at }),
      },
      { factor: 2, minLines: 1_000 },
    );
  }

  /**
   * Queues `text` for the agent's next beat, durable before it returns. Returns false, queueing
   * nothing, when `key` was already used within its window.
   */
  add(agentId: string, text: string, options: { now?: boolean; key?: string } = {}): boolean {
    if (options.key !== undefined && this.seen(options.key)) return false;
    const line: Line = { op: "event", id: randomUUID(), agentId, text, now: options.now ?? false, at: this.now(), ...(options.key !== undefined ? { key: options.key } : {}) };
    this.write(line);
    return true;
  }

  /** The agent's waiting events, oldest first. */
  forAgent(agentId: string): PendingEvent[] {
    const events: PendingEvent[] = [];
    for (const entry of this.log.entries.values()) if (entry.kind === "event" && entry.event.agentId === agentId) events.push(entry.event);
    return events;
  }

  /** How many events wait for each agent. */
  countsByAgent(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.log.entries.values()) if (entry.kind === "event") counts.set(entry.event.agentId, (counts.get(entry.event.agentId) ?? 0) + 1);
    return counts;
  }

  /** Agents owed a beat at once: a `wake now` was queued and no beat has carried it yet. */
  agentsOwedNow(): string[] {
    const agents = new Set<string>();
    for (const entry of this.log.entries.values()) if (entry.kind === "event" && entry.event.now) agents.add(entry.event.agentId);
    return [...agents];
  }

  /** A beat that carried these events ended: they leave the queue (durably, so they are not carried twice). */
  settle(ids: readonly string[]): void {
    if (ids.length > 0) this.write({ op: "done", ids: [...ids] });
  }

  close(): void {
    this.log.close();
  }

  private seen(key: string): boolean {
    const entry = this.log.entries.get(keySlot(key));
    return entry !== undefined && entry.kind === "key" && this.now() - entry.at <= WAKE_KEY_TTL_MS;
  }

  private write(line: Line): void {
    this.log.append(line);
    this.log.syncNow();
    applyLine(this.log.entries, line);
    this.log.compactIfDue();
  }
}

function applyLine(entries: Map<string, Entry>, line: Line): void {
  if (line.op === "event" && typeof line.id === "string" && typeof line.agentId === "string" && typeof line.text === "string") {
    entries.set(eventSlot(line.id), { kind: "event", event: { id: line.id, agentId: line.agentId, text: line.text, now: line.now === true, at: Number(line.at) || 0 } });
    if (typeof line.key === "string") entries.set(keySlot(line.key), { kind: "key", at: Number(line.at) || 0 });
  } else if (line.op === "key" && typeof line.key === "string") {
    entries.set(keySlot(line.key), { kind: "key", at: Number(line.at) || 0 });
  } else if (line.op === "done" && Array.isArray(line.ids)) {
    for (const id of line.ids) entries.delete(eventSlot(String(id)));
  }
}
