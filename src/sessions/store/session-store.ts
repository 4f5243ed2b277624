import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { ModelMessage, TranscriptMessage } from "../../models/messages.js";
import { ensurePrivateDir } from "../../infra/paths.js";
import { formatSessionKey, normalizeSafeAgentId, parseSessionKey, SessionKeyError } from "../keys/index.js";
import { AgentIndexes } from "./agent-indexes.js";
import { planPrune, type PruneOptions, type PruneVerdict } from "./prune-plan.js";
import { rotateTranscript, type RotateOptions, type RotateResult } from "./rotate-transcript.js";
import { applyPatch, recordAppend, restoreEntry } from "./entry-mutations.js";
import { PER_GENERATION_FIELDS, STORE_OWNED_FIELDS, type AppendMeta, type SessionEntry, type SessionInit, type SessionPatch } from "./session-entry.js";
import { sessionsDir, transcriptFile } from "./session-paths.js";
import { headerSessionKey, selectArchives, type ArchiveSweep } from "./archive-sweep.js";
import { afterEarlierSteps, folderFiles, planDiskBudget, type DiskBudgetPlan } from "./disk-budget.js";
import { SessionNotFoundError, StaleWriterError } from "./session-store-errors.js";
import { chainEntries, toJsonLines, type TranscriptEntry, type TranscriptEntryInput, type TranscriptMessageEntry } from "./transcript-lines.js";
import { readTranscriptFile, readTranscriptTail, type ParsedTranscript, type TranscriptTail } from "./transcript-reader.js";
import { archiveFile, createTranscript, writeFreshTranscript } from "./transcript-writer.js";
import { AppendFiles } from "../../infra/append-files.js";
import { LRUCache } from "lru-cache";
import { clearedOnReset } from "../progress-card/progress-card.js";

export interface SessionStoreOptions {
  /** Clock (tests). */
  now?: () => number;
  /** Upper bound on how long a metadata-only index update may wait (default 1 s). */
  flushDelayMs?: number;
  /** `cwd` written into new transcript headers when ensure() names none. */
  cwd?: string;
  /** Recovery notes (index rebuilt, torn files) for the log. */
  onWarning?: (message: string) => void;
}

/** Which agents a maintenance step covers (default: every agent known), and whether it only reports. */
export interface MaintenanceScope {
  dryRun?: boolean;
  agentIds?: readonly string[];
}

/** One agent's sessions after `prune`: the verdict on each (prune-plan.ts). */
export interface AgentPrune {
  agentId: string;
  verdicts: PruneVerdict[];
}

/** An archive a maintenance step removed (or, in a dry run, would remove). */
export interface RemovedFile {
  agentId: string;
  file: string;
  bytes: number;
}

/** A background index write under way longer than this means the disk is not answering. */
const INDEX_WRITE_STUCK_MS = 1_000;

/** How many session keys' parsed forms locate() remembers. */
const LOCATED_KEYS = 1_024;

/**
 * Sessions of every agent under one state dir, file-era layout (see docs/sessions.md, "On disk"):
 * `agents/<agentId>/sessions/sessions.json` plus one `<sessionId>.jsonl` per session.
 *
 * Everything is synchronous: each call finishes its disk work (and fsync) before it returns,
 * except where a method says otherwise (deferred appends and ensure, one-off sessions), and no
 * two calls interleave, so check-then-write sequences (writer fencing) need no locks.
 * A gateway holds the state-dir lock, so this process is the only writer.
 */
export class SessionStore {
  readonly stateDir: string;
  /** The most recent recovery warnings (bounded), also passed to `onWarning`. */
  readonly warnings: string[] = [];
  /** Parent id and newline state per transcript file, so appends need not re-read the file. */
  private readonly tails = new Map<string, TranscriptTail>();
  private readonly located = new LRUCache<string, Readonly<{ agentId: string; key: string }>>({ max: LOCATED_KEYS });
  private readonly indexes: AgentIndexes;
  private readonly now: () => number;
  private closed = false;
  /** Index writes a `durable` patch started, per session, until they are on disk (`whenDurable` waits for them). */
  private readonly indexWrites = new Map<string, Promise<void>>();
  /** Transcripts kept open for appends, with group-committed fsync. */
  private readonly files = new AppendFiles();

  constructor(
    stateDir: string,
    private readonly options: SessionStoreOptions = {},
  ) {
    this.stateDir = path.resolve(stateDir);
    this.now = options.now ?? Date.now;
    this.indexes = new AgentIndexes({
      stateDir: this.stateDir,
      now: this.now,
      cwd: options.cwd ?? process.cwd(),
      flushDelayMs: options.flushDelayMs ?? 1_000,
      warn: (message) => this.warn(message),
    });
  }

  get(sessionKey: string): SessionEntry | undefined {
    const entry = this.peek(sessionKey);
    return entry ? { ...entry } : undefined;
  }

  /**
   * The live index entry, not a copy: for the hot paths of a turn that only read a field or
   * two (get() copies the whole entry each call). Callers must not keep or change it.
   */
  peek(sessionKey: string): Readonly<SessionEntry> | undefined {
    const { agentId, key } = this.locate(sessionKey);
    return this.indexes.entries(agentId).get(key);
  }

  /**
   * `sessionKey` itself, as the store's own string instance when it is already the store's
   * canonical spelling: a key rebuilt per request (`openai-user:<user>`) is otherwise a fresh
   * string in every record kept about that request.
   */
  sharedKey(sessionKey: string): string {
    const { key } = this.locate(sessionKey);
    return key === sessionKey ? key : sessionKey;
  }

  /** Sessions of one agent, or of all agents, most recently updated first. */
  list(agentId?: string): SessionEntry[] {
    const ids = agentId === undefined ? this.indexes.knownAgentIds() : [normalizeSafeAgentId(agentId)];
    const out: SessionEntry[] = [];
    for (const id of ids) for (const entry of this.indexes.entries(id).values()) out.push({ ...entry });
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /**
   * The session, created when missing. Its transcript header is durable before this returns.
   * A plain session (no settings in `init`) is fully described by that header, so its index row
   * is written coalesced: a crash before the write is repaired when the index is next opened
   * (restoreUnindexedTranscripts). Settings a header cannot carry (label, spawnedBy, overrides)
   * are written to the index at once.
   *
   * `deferSync` (for callers that await `whenDurable` before acknowledging anything, as with
   * deferred appends): a new plain session's header and its directory entry are fsynced off the
   * event loop, starting at once, and `whenDurable` covers them. A crash before that fsync loses
   * the session, whose first message no one was told is kept. A session created with settings is
   * durable before this returns all the same: its index row, written at once, names its transcript.
   */
  ensure(sessionKey: string, init: SessionInit = {}, options: { deferSync?: boolean } = {}): SessionEntry {
    const { agentId, key } = this.locateForCreate(sessionKey, init.agentId);
    const entries = this.indexes.entries(agentId);
    const existing = entries.get(key);
    if (existing) return { ...existing };
    const { cwd, agentId: _agent, ...fields } = init;
    const plain = Object.keys(fields).length === 0;
    const entry = this.startGeneration(agentId, key, fields, cwd, plain && options.deferSync ? "soon" : "now");
    if (plain) this.indexes.commitSoon(agentId, () => entries.set(key, entry));
    else
      this.indexes.commit(
        agentId,
        () => entries.set(key, entry),
        () => entries.delete(key),
      );
    return { ...entry };
  }

  /**
   * A new session for one anonymous turn, discarded when the turn ends: nothing of it is made
   * durable. No index file ever lists it, and its transcript is never fsynced (`whenDurable`
   * resolves at once), so creating and discarding it write no index and wait on no disk. A
   * crash can leave its transcript behind, restored at the next open like any session missing
   * from the index; the per-agent cap removes anonymous sessions first. The key must be new.
   */
  ensureOneOff(sessionKey: string, init: Pick<SessionInit, "agentId" | "cwd"> = {}): SessionEntry {
    const { agentId, key } = this.locateForCreate(sessionKey, init.agentId);
    if (this.indexes.entries(agentId).has(key)) throw new SessionKeyError(`session ${key} already exists; a one-off session needs a new key`);
    const entry = this.startGeneration(agentId, key, {}, init.cwd, "never");
    this.indexes.addUnlisted(agentId, key, entry);
    return { ...entry };
  }

  /**
   * Updates metadata (null clears a field); the store's own fields cannot be patched. The index
   * is written within the flush delay; with `durable`, its write starts at once off the event
   * loop and `whenDurable` covers it, for a change the caller acknowledges (a session's chat
   * route: a crash must not lose where its replies go).
   */
  patch(sessionKey: string, patch: SessionPatch, options: { durable?: boolean } = {}): SessionEntry {
    this.assertOpen();
    const { agentId, entry } = this.require(sessionKey);
    if (options.durable && !this.indexes.isUnlisted(entry)) {
      const write = this.indexes.commitDurablySoon(agentId, () => applyPatch(entry, patch));
      this.indexWrites.set(sessionKey, write);
      const forget = () => {
        if (this.indexWrites.get(sessionKey) === write) this.indexWrites.delete(sessionKey);
      };
      write.then(forget, forget);
    } else this.changeSoon(agentId, entry, () => applyPatch(entry, patch));
    return { ...entry };
  }

  /**
   * Starts the session over under a new sessionId; the old transcript is kept as
   * `<file>.reset.<ts>`. Settings survive, counters and the writer claim do not (a run still
   * writing to the old generation gets StaleWriterError). A missing session is simply created.
   */
  reset(sessionKey: string): SessionEntry {
    this.assertOpen();
    const { agentId, key } = this.locate(sessionKey);
    const entries = this.indexes.entries(agentId);
    const old = entries.get(key);
    if (!old) return this.ensure(key);
    const carried: Record<string, unknown> = { ...old };
    for (const field of [...STORE_OWNED_FIELDS, ...PER_GENERATION_FIELDS]) delete carried[field];
    // The previous task's progress card ends with it, committed with the new generation.
    const card = clearedOnReset(old.progressCard, this.now());
    if (card) carried.progressCard = card;
    const fresh = this.startGeneration(agentId, key, carried, undefined);
    this.indexes.commit(
      agentId,
      () => entries.set(key, fresh),
      () => {
        entries.set(key, old);
        fs.rmSync(fresh.sessionFile, { force: true });
      },
    );
    this.retire(old, "reset");
    return { ...fresh };
  }

  /** Whether the session lives in memory only (`ensureOneOff`): nothing of it is ever written. */
  isOneOff(sessionKey: string): boolean {
    const entry = this.peek(sessionKey);
    return entry !== undefined && this.indexes.isUnlisted(entry as SessionEntry);
  }

  /** Removes the session; its transcript is kept as `<file>.deleted.<ts>`. False when absent. */
  delete(sessionKey: string): boolean {
    const old = this.removeEntry(sessionKey);
    if (old) this.retire(old, "deleted");
    return old !== undefined;
  }

  /**
   * Removes the session and its transcript outright, keeping no archive: for a session that was
   * never meant to be kept (an anonymous HTTP request's). A one-off session (ensureOneOff) leaves
   * memory only; any other is first written out of the index, so no index ever points at a
   * missing transcript. False when absent.
   */
  discard(sessionKey: string): boolean {
    const old = this.removeEntry(sessionKey);
    if (!old) return false;
    this.tails.delete(old.sessionFile);
    this.files.forget(old.sessionFile);
    fs.rmSync(old.sessionFile, { force: true });
    return true;
  }

  /** Takes the session out of its agent's index (committed; a one-off session is only in memory); its transcript is the caller's. */
  private removeEntry(sessionKey: string): SessionEntry | undefined {
    this.assertOpen();
    const { agentId, key } = this.locate(sessionKey);
    const entries = this.indexes.entries(agentId);
    const old = entries.get(key);
    if (old && this.indexes.isUnlisted(old)) entries.delete(key);
    else if (old)
      this.indexes.commit(
        agentId,
        () => entries.delete(key),
        () => entries.set(key, old),
      );
    return old;
  }

  /**
   * Makes `runId` the session's only run allowed to append (supersedes any earlier claim). The
   * fence is enforced in memory at once; the index records it lazily: after a crash every claim
   * is released at start-up (recoverInterruptedRuns), so a synchronous write would buy nothing.
   */
  claimWriter(sessionKey: string, runId: string): SessionEntry {
    this.assertOpen();
    if (typeof runId !== "string" || runId.length === 0) throw new TypeError("claimWriter needs a runId");
    const { agentId, entry } = this.require(sessionKey);
    this.changeSoon(agentId, entry, () => (entry.activeWriterRunId = runId));
    return { ...entry };
  }

  /**
   * Drops `runId`'s claim; false when it no longer held it (superseded, reset, deleted). An
   * optional `patch` (end-of-run metadata) is applied in the same index write — only when the
   * claim was still held, so a superseded run cannot overwrite its successor's metadata.
   */
  releaseWriter(sessionKey: string, runId: string, patch?: SessionPatch): boolean {
    this.assertOpen();
    const { agentId, key } = this.locate(sessionKey);
    const entry = this.indexes.entries(agentId).get(key);
    if (!entry || entry.activeWriterRunId !== runId) return false;
    this.changeSoon(agentId, entry, () => {
      if (patch) applyPatch(entry, patch);
      delete entry.activeWriterRunId;
    });
    return true;
  }

  /**
   * Appends one `message` line per message — one write and one fsync for the batch, done before
   * this returns. `runId` null is an append outside a run (the user's message at acceptance);
   * otherwise the run must hold the writer claim, or StaleWriterError is thrown and nothing is
   * written. Extra message fields (idempotencyKey, provenance) are stored as given.
   */
  appendMessages(sessionKey: string, runId: string | null, messages: readonly (TranscriptMessage | ModelMessage)[], meta?: AppendMeta): TranscriptMessageEntry[] {
    for (const message of messages) {
      if (typeof message !== "object" || message === null || typeof message.role !== "string") {
        throw new TypeError("appendMessages: every message needs a string role");
      }
    }
    return this.appendEntries(
      sessionKey,
      runId,
      messages.map((message) => ({ type: "message", message })),
      meta,
    ) as TranscriptMessageEntry[];
  }

  /** Appends entries of any type (`custom`, `compaction`, …) with the same fencing and durability. */
  appendEntries(sessionKey: string, runId: string | null, inputs: readonly TranscriptEntryInput[], meta?: AppendMeta): TranscriptEntry[] {
    this.assertOpen();
    const { agentId, key } = this.locate(sessionKey);
    const entry = this.indexes.entries(agentId).get(key);
    if (!entry) {
      if (runId !== null) throw new StaleWriterError(key, runId, undefined);
      throw new SessionNotFoundError(key);
    }
    if (runId !== null && entry.activeWriterRunId !== runId) throw new StaleWriterError(key, runId, entry.activeWriterRunId);
    for (const input of inputs) {
      if (typeof input?.type !== "string" || input.type === "session") throw new TypeError('appendEntries: every entry needs a type other than "session"');
    }
    if (inputs.length === 0) return [];

    const tail = this.tailOf(entry);
    const written = chainEntries(inputs, tail.lastId, this.now());
    // Serialized before touching the file: a message that cannot be encoded writes nothing.
    const text = (tail.needsNewline ? "\n" : "") + toJsonLines(written);
    try {
      this.files.append(entry.sessionFile, Buffer.from(text, "utf8"));
      // Deferred: the caller awaits the group-committed fsync (whenDurable) instead.
      if (!meta?.deferSync && !this.indexes.isUnlisted(entry)) this.files.syncNow(entry.sessionFile);
    } catch (err) {
      this.tails.delete(entry.sessionFile); // a partial write may have torn the end; re-inspect next time
      throw err;
    }
    this.tails.set(entry.sessionFile, { lastId: written[written.length - 1]!.id, needsNewline: false });

    this.changeSoon(agentId, entry, () => recordAppend(entry, written, meta, this.now()));
    return written;
  }

  /**
   * Resolves once everything appended to the session's transcript so far is on disk (see
   * `deferSync`); at once for a one-off session, whose transcript is never synced.
   */
  whenDurable(sessionKey: string): Promise<void> {
    const entry = this.peek(sessionKey);
    if (!entry || this.indexes.isUnlisted(entry)) return Promise.resolve();
    const transcript = this.files.sync(entry.sessionFile);
    const index = this.indexWrites.get(sessionKey);
    return index ? Promise.all([transcript, index]).then(() => undefined) : transcript;
  }

  /**
   * The transcript as stored; bad lines are skipped and reported in `warnings`, never thrown.
   * Each skipped line is also passed to `onWarning` once per file, however often it is read.
   */
  readTranscript(sessionKey: string): ParsedTranscript {
    const file = this.require(sessionKey).entry.sessionFile;
    const parsed = readTranscriptFile(file);
    for (const warning of parsed.warnings) {
      const key = `${file}\u0000${warning}`;
      if (this.reportedTranscriptWarnings.has(key)) continue;
      if (this.reportedTranscriptWarnings.size >= 1_000) this.reportedTranscriptWarnings.clear();
      this.reportedTranscriptWarnings.add(key);
      this.warn(`${sessionKey}: ${warning}`);
    }
    return parsed;
  }

  /**
   * Archives sessions idle longer than `maxAgeMs` and, per agent, the least recently updated
   * beyond `maxEntries` (prune-plan.ts): each leaves the index and its transcript is kept as
   * `.deleted.<ts>`. Protected sessions (an active run, a pin, `protectedKeys`, `preserveRecentMs`)
   * are kept. Returns, for every agent of `agentIds` (default: every agent known), the verdict on
   * each of its sessions; with `dryRun`, what would become of them, archiving nothing.
   */
  prune(options: PruneOptions, { dryRun = false, agentIds }: MaintenanceScope = {}): AgentPrune[] {
    this.assertOpen();
    const result: AgentPrune[] = [];
    for (const agentId of this.agentsIn(agentIds)) {
      const entries = this.indexes.entries(agentId);
      const verdicts = planPrune([...entries.values()], options, this.now());
      result.push({ agentId, verdicts });
      const keys = verdicts.filter((v) => v.action !== "keep").map((v) => v.key);
      if (dryRun || keys.length === 0) continue;
      const gone = keys.map((k) => entries.get(k)!);
      this.indexes.commit(
        agentId,
        () => keys.forEach((k) => entries.delete(k)),
        () => gone.forEach((e) => entries.set(e.sessionKey, e)),
      );
      for (const old of gone) this.retire(old, "deleted");
    }
    return result;
  }

  /**
   * Removes the archived transcripts `sweep` selects (archive-sweep.ts) in the sessions folder of
   * every agent of `agentIds` (default: every agent known); with `dryRun` removes nothing. Returns
   * the files (to be) removed, with their sizes. A live transcript is never touched: only
   * `<file>.<kind>.<ts>` archives are considered.
   */
  removeArchives(sweep: ArchiveSweep, { dryRun = false, agentIds }: MaintenanceScope = {}): RemovedFile[] {
    this.assertOpen();
    // Archives never change: each header is read once, not at every hourly pass.
    if (this.archiveKeys.size > 100_000) this.archiveKeys.clear();
    const keyOf = (file: string) => {
      if (!this.archiveKeys.has(file)) this.archiveKeys.set(file, headerSessionKey(file));
      return this.archiveKeys.get(file);
    };
    const files = this.agentsIn(agentIds).flatMap((agentId) =>
      selectArchives(sessionsDir(this.stateDir, agentId), sweep, keyOf).map((file) => ({ agentId, file, bytes: fs.lstatSync(file, { throwIfNoEntry: false })?.size ?? 0 })),
    );
    if (!dryRun) {
      for (const { file } of files) {
        fs.rmSync(file, { force: true });
        this.archiveKeys.delete(file);
      }
    }
    return files;
  }

  /**
   * `session.maintenance.maxDiskBytes` for the sessions folder of every agent of `agentIds`
   * (default: every agent known; disk-budget.ts): over `maxBytes`, its oldest archives are
   * removed until it takes at most `highWaterBytes`; with `dryRun` nothing is removed. Returns
   * each folder's plan (an empty one when it is within its budget). A dry run of a whole pass
   * passes `assume`, what the pass's earlier steps would have removed and archived.
   */
  enforceDiskBudget(
    maxBytes: number,
    highWaterBytes: number,
    { dryRun = false, agentIds, assume }: MaintenanceScope & { assume?: { removed: ReadonlySet<string>; archived: ReadonlySet<string> } } = {},
  ): ({ agentId: string } & DiskBudgetPlan)[] {
    this.assertOpen();
    const plans: ({ agentId: string } & DiskBudgetPlan)[] = [];
    for (const agentId of this.agentsIn(agentIds)) {
      const files = folderFiles(sessionsDir(this.stateDir, agentId));
      const plan = planDiskBudget(assume ? afterEarlierSteps(files, assume.removed, assume.archived, this.now()) : files, maxBytes, highWaterBytes);
      plans.push({ agentId, ...plan });
      if (dryRun) continue;
      for (const { file } of plan.remove) {
        fs.rmSync(file, { force: true });
        this.archiveKeys.delete(file);
      }
    }
    return plans;
  }

  /** The session key of each archived transcript whose header `removeArchives` read. */
  private readonly archiveKeys = new Map<string, string | undefined>();

  /**
   * Rotates the transcript when it exceeds `maxBytes` (see rotateTranscript): same sessionId,
   * old file kept as `<file>.rotated.<ts>`, the newest history up to `keepBytes` carried over.
   */
  rotateIfLarge(sessionKey: string, maxBytes: number, options: RotateOptions = {}): RotateResult {
    this.assertOpen();
    const { key, entry } = this.require(sessionKey);
    const runId = options.runId ?? null;
    if (runId !== null && entry.activeWriterRunId !== runId) throw new StaleWriterError(key, runId, entry.activeWriterRunId);
    // The size our own appends left (checked against the file at each append) spares a stat per run.
    const known = this.files.sizeOf(entry.sessionFile);
    if (known !== undefined && known <= maxBytes) return { rotated: false, bytes: known };
    const result = rotateTranscript(entry, maxBytes, options.keepBytes ?? Math.floor(maxBytes / 4), this.now(), this.options.cwd ?? process.cwd());
    if (result.rotated) this.tails.set(entry.sessionFile, { lastId: result.lastEntryId, needsNewline: false });
    return result;
  }

  /**
   * After a crash, claims left in the index belong to runs that died. Clears them and marks
   * `abortedLastRun`. Call once at gateway start (under the state-dir lock), not from tools
   * that only read. Returns the affected keys.
   */
  recoverInterruptedRuns(): string[] {
    this.assertOpen();
    const recovered: string[] = [];
    for (const agentId of this.indexes.knownAgentIds()) {
      const stale = [...this.indexes.entries(agentId).values()].filter((e) => e.activeWriterRunId);
      if (stale.length === 0) continue;
      const before = stale.map((e) => ({ ...e }));
      this.indexes.commit(
        agentId,
        () => stale.forEach((e) => ((e.abortedLastRun = true), delete e.activeWriterRunId)),
        () => stale.forEach((e, i) => restoreEntry(e, before[i]!)),
      );
      recovered.push(...stale.map((e) => e.sessionKey));
    }
    return recovered;
  }

  /** Writes pending metadata updates now. */
  flush(): void {
    this.indexes.flushNow();
  }

  /**
   * For a process about to exit without finishing its stop (its deadline passed, a second
   * signal): writes the index updates still waiting for their coalesced write, synchronously
   * (an index is a few kilobytes), so a turn already answered keeps its row and counters. The
   * rule: it writes unless one of the store's own index writes has been under way for over
   * INDEX_WRITE_STUCK_MS — then the disk is what does not answer, a synchronous write would hang
   * the exit too, and the pending updates are left to the next open's repair. Throws when the
   * write fails.
   */
  flushBeforeExit(): "written" | "nothing pending" | "skipped: an index write is stuck" {
    if (!this.indexes.hasPending()) return "nothing pending";
    if (this.indexes.oldestWriteAgeMs() > INDEX_WRITE_STUCK_MS) return "skipped: an index write is stuck";
    this.indexes.flushNow();
    return "written";
  }

  /** Resolves once the background index writes scheduled so far have finished. */
  indexWritesSettled(): Promise<void> {
    return this.indexes.settled();
  }

  /** Flushes and stops the background timer; the store refuses writes afterwards. */
  close(): void {
    if (this.closed) return;
    this.indexes.flushNow();
    this.indexes.dispose();
    this.files.closeAll();
    this.closed = true;
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  /** The agents a maintenance step covers: those named (validated as directory names), else every agent known. */
  private agentsIn(agentIds: readonly string[] | undefined): string[] {
    return agentIds === undefined ? this.indexes.knownAgentIds() : agentIds.map((id) => normalizeSafeAgentId(id));
  }

  /**
   * Parsing a key validates its shape part by part; a turn looks its session up a dozen times,
   * so the result is remembered for the most recently used keys. Invalid keys throw and are
   * never remembered.
   */
  private locate(sessionKey: string): { agentId: string; key: string } {
    const hit = this.located.get(sessionKey);
    if (hit) return hit;
    const { agentId, rest } = parseSessionKey(sessionKey);
    const found = { agentId, key: formatSessionKey({ agentId, rest }) };
    this.located.set(sessionKey, found);
    return found;
  }

  private require(sessionKey: string): { agentId: string; key: string; entry: SessionEntry } {
    const { agentId, key } = this.locate(sessionKey);
    const entry = this.indexes.entries(agentId).get(key);
    if (!entry) throw new SessionNotFoundError(key);
    return { agentId, key, entry };
  }

  /** Where a session to be created lives; the key's agent must be `agentId` when one is given. */
  private locateForCreate(sessionKey: string, agentId: string | undefined): { agentId: string; key: string } {
    this.assertOpen();
    const located = this.locate(sessionKey);
    if (agentId !== undefined && normalizeSafeAgentId(agentId) !== located.agentId) {
      throw new SessionKeyError(`session key ${located.key} belongs to agent ${located.agentId}, not ${agentId}`);
    }
    return located;
  }

  /** A change to `entry`'s row, written by the coalescing writer; a one-off session's row is never written. */
  private changeSoon(agentId: string, entry: SessionEntry, change: () => unknown): void {
    if (this.indexes.isUnlisted(entry)) change();
    else this.indexes.commitSoon(agentId, change);
  }

  /**
   * A new transcript generation, its header written first so the index never points at nothing,
   * and durable `now` (before this returns), `soon` (an fsync of it and its directory starts at
   * once off the event loop; `whenDurable` covers it) or `never` (a one-off session).
   */
  private startGeneration(agentId: string, key: string, fields: Record<string, unknown>, cwd: string | undefined, durable: "now" | "soon" | "never" = "now"): SessionEntry {
    ensurePrivateDir(sessionsDir(this.stateDir, agentId));
    const sessionId = randomUUID();
    const sessionFile = transcriptFile(this.stateDir, agentId, sessionId);
    const now = this.now();
    createTranscript({ sessionId, sessionFile, sessionKey: key, agentId }, cwd ?? this.options.cwd ?? process.cwd(), now, durable === "now");
    this.tails.set(sessionFile, { lastId: null, needsNewline: false });
    if (durable === "soon") {
      this.files.created(sessionFile);
      // A failure here is reported by the whenDurable that acknowledging waits for (the file stays marked).
      this.files.sync(sessionFile).catch(() => {});
    }
    return { ...fields, sessionId, sessionKey: key, agentId, sessionFile, updatedAt: now, sessionStartedAt: now, inputTokens: 0, outputTokens: 0, totalTokens: 0, messageCount: 0 };
  }

  /** Archives a transcript the index no longer references. The index is already durable, so a failure here only leaves a stray file. */
  private retire(entry: SessionEntry, kind: "reset" | "deleted"): void {
    this.tails.delete(entry.sessionFile);
    this.files.forget(entry.sessionFile);
    try {
      archiveFile(entry.sessionFile, kind, this.now());
    } catch (err) {
      this.warn(`${entry.sessionKey}: transcript not archived (${(err as Error).message})`);
    }
  }

  private tailOf(entry: SessionEntry): TranscriptTail {
    // One stat per append (the append reuses it): a transcript removed behind our back must get
    // a header again, and one replaced at its path gets the append, not its open predecessor.
    let presence = this.files.presence(entry.sessionFile);
    if (presence === "other") {
      this.replaceNonFile(entry);
      presence = this.files.presence(entry.sessionFile);
    }
    const cached = this.tails.get(entry.sessionFile);
    if (cached && presence === "file") return cached;
    const tail = readTranscriptTail(entry.sessionFile);
    if (tail) return tail;
    // The file vanished behind our back, or a crash left it empty (its header never reached the
    // disk: ensure with deferSync): start it again so the line format stays valid.
    writeFreshTranscript(entry, this.options.cwd ?? process.cwd(), this.now());
    this.warn(`${entry.sessionKey}: transcript ${entry.sessionFile} was ${presence === "file" ? "empty" : "missing"}; started it again with a fresh header`);
    return { lastId: null, needsNewline: false };
  }

  /**
   * Something other than a file (a directory) took the transcript's path: it is renamed to
   * `<file>.corrupt.<ts>`, untouched, and the session starts a fresh transcript with a warning.
   */
  private replaceNonFile(entry: SessionEntry): void {
    this.tails.delete(entry.sessionFile);
    this.files.forget(entry.sessionFile);
    const aside = archiveFile(entry.sessionFile, "corrupt", this.now());
    writeFreshTranscript(entry, this.options.cwd ?? process.cwd(), this.now());
    this.warn(`${entry.sessionKey}: transcript ${entry.sessionFile} was not a file; moved it aside as ${aside} and started a fresh transcript`);
  }

  private readonly reportedTranscriptWarnings = new Set<string>();

  private warn(message: string): void {
    this.warnings.push(message);
    if (this.warnings.length > 100) this.warnings.shift();
    this.options.onWarning?.(message);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("SessionStore is closed");
  }
}
