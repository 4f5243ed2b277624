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
 * memory if the write fails) and `markDirty` for counters (coalesced).
 */
export class AgentIndexes {
  private readonly loaded = new Map<string, Map<string, SessionEntry>>();
  private readonly writer: CoalescedIndexWriter;
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
   * Applies a metadata change now and lets the coalescing writer persist it (within its flush
   * delay). For changes whose loss in a crash is harmless: run claims (released on restart
   * anyway), counters, labels.
   */
  commitSoon(agentId: string, change: () => unknown): void {
    change();
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
    writeFileAtomicSync(indexFile(this.options.stateDir, agentId), serializeIndex(this.entries(agentId)), 0o600);
    this.markRenamed(agentId, ticket);
    this.writer.markClean(agentId);
  }

  /** Coalesced metadata: the snapshot is taken now, the write and fsync run off the event loop. */
  private async writeInBackground(agentId: string): Promise<void> {
    ensurePrivateDir(sessionsDir(this.options.stateDir, agentId));
    const ticket = this.takeTicket(agentId);
    const data = serializeIndex(this.entries(agentId));
    await writeFileAtomicAsync(indexFile(this.options.stateDir, agentId), data, 0o600, () => {
      if (this.ticketsOf(agentId).renamed > ticket) return false;
      this.markRenamed(agentId, ticket);
      return true;
    });
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
