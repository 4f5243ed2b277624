import fs from "node:fs";
import { ensurePrivateDir } from "../../infra/paths.js";
import { normalizeSafeAgentId } from "../keys/index.js";
import { CoalescedIndexWriter } from "./coalesced-index-writer.js";
import { writeFileAtomicAsync, writeFileAtomicSync } from "../../infra/atomic-file.js";
import { serializeIndex } from "./index-file.js";
import { openAgentIndex } from "./open-agent-index.js";
import type { SessionEntry } from "./session-entry.js";
import { agentsRoot, indexFile, sessionsDir } from "./session-paths.js";

export interface AgentIndexesOptions {
  stateDir: string;
  now: () => number;
  cwd: string;
  flushDelayMs: number;
  warn: (message: string) => void;
}

/**
 * The in-memory copy of every agent's `sessions.json`, loaded (and repaired) on first use, and
 * the two ways it reaches the disk: `commit` for structural changes (synchronous, undone in
 * memory if the write fails) and `commitSoon` for the rest (coalesced). Every write sets the
 * file's mtime to the moment its content was taken: a session started later may be missing from
 * it (open-agent-index.ts restores those). Entries added with `addUnlisted` (one-off sessions)
 * live only in memory.
 */
export class AgentIndexes {
  private readonly loaded = new Map<string, Map<string, SessionEntry>>();
  private readonly writer: CoalescedIndexWriter;
  /**
   * Per agent: the last snapshot taken (`taken`) and the newest one on disk (`renamed`). A
   * background write whose snapshot is older than what is already on disk is dropped.
   */
  private readonly tickets = new Map<string, { taken: number; renamed: number }>();
  /** Entries that live only in memory (one-off sessions): never written to an index file. */
  private readonly unlisted = new WeakSet<SessionEntry>();

  constructor(private readonly options: AgentIndexesOptions) {
    this.writer = new CoalescedIndexWriter(
      options.flushDelayMs,
      (agentId) => this.writeNow(agentId),
      (agentId) => this.writeInBackground(agentId),
      (agentId, err) => options.warn(`sessions index of agent ${agentId} not written yet: ${(err as Error).message}`),
    );
  }

  /** The agent's entries (live objects: mutate only through commit or commitSoon). */
  entries(agentId: string): Map<string, SessionEntry> {
    let entries = this.loaded.get(agentId);
    if (!entries) {
      const { stateDir, cwd, warn } = this.options;
      entries = openAgentIndex({ stateDir, agentId, now: this.options.now(), cwd, warn });
      this.loaded.set(agentId, entries);
    }
    return entries;
  }

  /** Agents loaded so far plus every agent directory on disk. */
  knownAgentIds(): string[] {
    const ids = new Set(this.loaded.keys());
    let names: string[] = [];
    try {
      names = fs.readdirSync(agentsRoot(this.options.stateDir));
    } catch {
      // no agents yet
    }
    for (const name of names) {
      try {
        if (normalizeSafeAgentId(name) === name) ids.add(name);
      } catch {
        // not a directory this store could have created
      }
    }
    return [...ids];
  }

  /** Adds an entry that no index file will ever hold: adding or removing it writes nothing. */
  addUnlisted(agentId: string, key: string, entry: SessionEntry): void {
    this.unlisted.add(entry);
    this.entries(agentId).set(key, entry);
  }

  /** Whether `entry` (the live object) is one that no index file holds. */
  isUnlisted(entry: SessionEntry): boolean {
    return this.unlisted.has(entry);
  }

  /** Applies a structural change and writes the index synchronously; undoes the change if the write fails. */
  commit(agentId: string, change: () => unknown, undo: () => unknown): void {
    change();
    try {
      this.writeNow(agentId);
    } catch (err) {
      undo();
      throw err;
    }
  }

  /**
   * Applies a change now and lets the coalescing writer persist it (within its flush delay). For
   * changes whose loss in a crash is harmless or repaired at the next open: run claims (released
   * on restart anyway), counters, labels, a plain session's creation (restored from its
   * transcript header).
   */
  commitSoon(agentId: string, change: () => unknown): void {
    change();
    this.writer.markDirty(agentId);
  }

  /** Applies a change now and writes the index off the event loop at once; resolves when it is on disk. */
  commitDurablySoon(agentId: string, change: () => unknown): Promise<void> {
    change();
    return this.writer.writeSoon(agentId);
  }

  flushNow(): void {
    this.writer.flushNow();
  }

  /** Whether a change is waiting for its coalesced write. */
  hasPending(): boolean {
    return this.writer.hasPending();
  }

  /** How long the oldest background index write has been under way (0: none is). */
  oldestWriteAgeMs(): number {
    return this.writer.oldestWriteAgeMs();
  }

  settled(): Promise<void> {
    return this.writer.settled();
  }

  dispose(): void {
    this.writer.dispose();
  }

  private writeNow(agentId: string): void {
    ensurePrivateDir(sessionsDir(this.options.stateDir, agentId));
    const ticket = this.takeTicket(agentId);
    writeFileAtomicSync(indexFile(this.options.stateDir, agentId), serializeIndex(this.entries(agentId), this.unlisted), 0o600, this.options.now());
    this.markRenamed(agentId, ticket);
    this.writer.markClean(agentId);
  }

  /** Coalesced changes: the snapshot is taken now, the write and fsync run off the event loop. */
  private async writeInBackground(agentId: string): Promise<void> {
    ensurePrivateDir(sessionsDir(this.options.stateDir, agentId));
    const ticket = this.takeTicket(agentId);
    const takenAt = this.options.now();
    const data = serializeIndex(this.entries(agentId), this.unlisted);
    await writeFileAtomicAsync(
      indexFile(this.options.stateDir, agentId),
      data,
      0o600,
      () => {
        if (this.ticketsOf(agentId).renamed > ticket) return false;
        this.markRenamed(agentId, ticket);
        return true;
      },
      takenAt,
    );
  }

  private ticketsOf(agentId: string): { taken: number; renamed: number } {
    let t = this.tickets.get(agentId);
    if (!t) {
      t = { taken: 0, renamed: 0 };
      this.tickets.set(agentId, t);
    }
    return t;
  }

  private takeTicket(agentId: string): number {
    return ++this.ticketsOf(agentId).taken;
  }

  private markRenamed(agentId: string, ticket: number): void {
    const t = this.ticketsOf(agentId);
    t.renamed = Math.max(t.renamed, ticket);
  }
}
