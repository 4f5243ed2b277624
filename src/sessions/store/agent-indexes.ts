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
 * memory if the write fails) and `commitSoon` / `markDirty` for the rest (coalesced). Every
 * write sets the file's mtime to the moment its content was taken: a session started later may
 * be missing from it (open-agent-index.ts restores those).
 */
export class AgentIndexes {
  private readonly loaded = new Map<string, Map<string, SessionEntry>>();
  private readonly writer: CoalescedIndexWriter;
  /** Per agent: what waits for the next write whose content is taken after it was queued. */
  private readonly afterWrite = new Map<string, Array<() => void>>();
  /** Per agent: what background writes under way took from `afterWrite`; a synchronous write covers it too. */
  private readonly afterWriteInFlight = new Map<string, Set<Array<() => void>>>();
  /**
   * Per agent: the last snapshot taken (`taken`) and the newest one on disk (`renamed`). A
   * background write whose snapshot is older than what is already on disk is dropped.
   */
  private readonly tickets = new Map<string, { taken: number; renamed: number }>();

  constructor(private readonly options: AgentIndexesOptions) {
    this.writer = new CoalescedIndexWriter(
      options.flushDelayMs,
      (agentId) => this.writeNow(agentId),
      (agentId) => this.writeInBackground(agentId),
      (agentId, err) => options.warn(`sessions index of agent ${agentId} not written yet: ${(err as Error).message}`),
    );
  }

  /** The agent's entries (live objects: mutate only through commit or followed by markDirty). */
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
   * transcript header). `afterWritten` runs once an index holding the change is on disk; it
   * may run twice (a synchronous write and a background one under way both cover the change).
   */
  commitSoon(agentId: string, change: () => unknown, afterWritten?: () => void): void {
    change();
    if (afterWritten) {
      const waiting = this.afterWrite.get(agentId);
      if (waiting) waiting.push(afterWritten);
      else this.afterWrite.set(agentId, [afterWritten]);
    }
    this.writer.markDirty(agentId);
  }

  markDirty(agentId: string): void {
    this.writer.markDirty(agentId);
  }

  flushNow(): void {
    this.writer.flushNow();
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
    const waiting = [...this.takeAfterWrite(agentId), ...[...(this.afterWriteInFlight.get(agentId) ?? [])].flat()];
    try {
      writeFileAtomicSync(indexFile(this.options.stateDir, agentId), serializeIndex(this.entries(agentId)), 0o600, this.options.now());
    } catch (err) {
      this.putBackAfterWrite(agentId, waiting);
      throw err;
    }
    this.markRenamed(agentId, ticket);
    this.writer.markClean(agentId);
    this.runAfterWrite(agentId, waiting);
  }

  /** Coalesced changes: the snapshot is taken now, the write and fsync run off the event loop. */
  private async writeInBackground(agentId: string): Promise<void> {
    ensurePrivateDir(sessionsDir(this.options.stateDir, agentId));
    const ticket = this.takeTicket(agentId);
    const waiting = this.takeAfterWrite(agentId);
    const takenAt = this.options.now();
    const data = serializeIndex(this.entries(agentId));
    let inFlight = this.afterWriteInFlight.get(agentId);
    if (!inFlight) this.afterWriteInFlight.set(agentId, (inFlight = new Set()));
    inFlight.add(waiting);
    try {
      // Not replaced means a write whose snapshot is newer already landed: it holds these changes too.
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
    } catch (err) {
      this.putBackAfterWrite(agentId, waiting);
      throw err;
    } finally {
      inFlight.delete(waiting);
    }
    this.runAfterWrite(agentId, waiting);
  }

  private takeAfterWrite(agentId: string): Array<() => void> {
    const waiting = this.afterWrite.get(agentId) ?? [];
    this.afterWrite.delete(agentId);
    return waiting;
  }

  /** A failed write: its follow-ups wait for the next one (the change is marked dirty again). */
  private putBackAfterWrite(agentId: string, waiting: Array<() => void>): void {
    if (waiting.length === 0) return;
    this.afterWrite.set(agentId, [...waiting, ...(this.afterWrite.get(agentId) ?? [])]);
  }

  private runAfterWrite(agentId: string, waiting: Array<() => void>): void {
    for (const run of waiting) {
      try {
        run();
      } catch (err) {
        this.options.warn(`sessions index of agent ${agentId}: a step after its write failed: ${(err as Error).message}`);
      }
    }
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
