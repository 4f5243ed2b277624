import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { fsyncDirectory, writeFileAtomicSync } from "../../infra/atomic-file.js";
import { ensurePrivateDir } from "../../infra/paths.js";
import { FROZEN_RESULT_MAX_BYTES, type SubagentRunRecord } from "./types.js";
import { readTextIfExists } from "../../infra/read-optional.js";

export interface SubagentRegistryOptions {
  /** Records that ended for good kept at most (oldest dropped first), whatever `archiveAfterMinutes` says. */
  maxEnded?: number;
  onWarning?: (message: string) => void;
}

const FILE_VERSION = 1;

/**
 * Every sub-agent run this gateway knows, active and recently ended, persisted at
 * `<state>/subagents/runs.json` so a restart forgets neither a running child nor an
 * announcement still owed. Writes are coalesced (one atomic write for a burst of changes) and
 * done off the event loop; `whenDurable()` resolves once the latest change is on disk. Results
 * over 100 KB are frozen to `<state>/subagents/results/<runId>.txt`; the record keeps the first
 * 100 KB.
 */
export class SubagentRegistry {
  readonly dir: string;
  readonly file: string;
  private readonly resultsDir: string;
  private readonly records = new Map<string, SubagentRunRecord>();
  private readonly byChild = new Map<string, string>();
  private readonly byRequester = new Map<string, Set<string>>();
  private readonly maxEnded: number;
  private nextFlush?: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void };
  private inFlight?: Promise<void>;

  constructor(
    stateDir: string,
    private readonly options: SubagentRegistryOptions = {},
  ) {
    this.dir = path.join(path.resolve(stateDir), "subagents");
    this.file = path.join(this.dir, "runs.json");
    this.resultsDir = path.join(this.dir, "results");
    this.maxEnded = options.maxEnded ?? 500;
  }

  /** Reads the file; a damaged one is set aside (`runs.json.corrupt-<ts>`) and the registry starts empty. */
  load(): void {
    ensurePrivateDir(this.dir);
    const text = readTextIfExists(this.file);
    if (text === undefined) return;
    let runs: unknown;
    try {
      const parsed = JSON.parse(text) as { version?: unknown; runs?: unknown };
      runs = parsed.runs;
      if (parsed.version !== FILE_VERSION || !Array.isArray(runs)) throw new Error(`unexpected format (version ${String(parsed.version)})`);
    } catch (err) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      fs.renameSync(this.file, aside);
      this.options.onWarning?.(`sub-agent registry unreadable (${(err as Error).message}); moved to ${aside}, starting empty`);
      return;
    }
    for (const record of runs as SubagentRunRecord[]) if (isRecord(record)) this.index(record);
  }

  all(): SubagentRunRecord[] {
    return [...this.records.values()];
  }

  get(runId: string): SubagentRunRecord | undefined {
    return this.records.get(runId);
  }

  /** The record whose child session this is. */
  forChild(childSessionKey: string): SubagentRunRecord | undefined {
    const runId = this.byChild.get(childSessionKey);
    return runId ? this.records.get(runId) : undefined;
  }

  /** Records spawned by this session, oldest first. */
  childrenOf(requesterSessionKey: string): SubagentRunRecord[] {
    return [...(this.byRequester.get(requesterSessionKey) ?? [])].map((id) => this.records.get(id)!).filter(Boolean);
  }

  /** Every record below this session, depth first. */
  descendantsOf(sessionKey: string): SubagentRunRecord[] {
    return this.childrenOf(sessionKey).flatMap((child) => [child, ...this.descendantsOf(child.childSessionKey)]);
  }

  add(record: SubagentRunRecord): void {
    this.index(record);
    this.dropOldEnded();
    this.changed();
  }

  remove(runId: string): void {
    const record = this.records.get(runId);
    if (!record) return;
    this.records.delete(runId);
    if (this.byChild.get(record.childSessionKey) === runId) this.byChild.delete(record.childSessionKey);
    const siblings = this.byRequester.get(record.requesterSessionKey);
    siblings?.delete(runId);
    if (siblings?.size === 0) this.byRequester.delete(record.requesterSessionKey);
    if (record.frozenResultFile) fs.rmSync(record.frozenResultFile, { force: true });
    this.changed();
  }

  /** Records the round's result: up to 100 KB inline, the whole text in a file when larger. */
  freezeResult(record: SubagentRunRecord, text: string): void {
    const bytes = Buffer.byteLength(text, "utf8");
    record.frozenResultBytes = bytes;
    if (bytes <= FROZEN_RESULT_MAX_BYTES) {
      record.frozenResultText = text;
      if (record.frozenResultFile) fs.rmSync(record.frozenResultFile, { force: true });
      delete record.frozenResultFile;
      return;
    }
    ensurePrivateDir(this.resultsDir);
    const file = path.join(this.resultsDir, `${record.runId}.txt`);
    writeFileAtomicSync(file, text);
    record.frozenResultFile = file;
    record.frozenResultText = headOfUtf8(text, FROZEN_RESULT_MAX_BYTES);
  }

  /** The full frozen result (from its file when it was too large to keep inline). */
  fullResult(record: SubagentRunRecord): string {
    if (!record.frozenResultFile) return record.frozenResultText ?? "";
    try {
      return fs.readFileSync(record.frozenResultFile, "utf8");
    } catch {
      return record.frozenResultText ?? "";
    }
  }

  /** Something changed: write soon. Changes made before the write starts share it. */
  changed(): void {
    if (this.nextFlush) return;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch((err) => this.options.onWarning?.(`sub-agent registry not saved: ${(err as Error).message}`));
    const flush = { promise, resolve, reject };
    this.nextFlush = flush;
    const previous = this.inFlight ?? Promise.resolve();
    setImmediate(() => {
      void previous
        .catch(() => {})
        .then(() => {
          this.nextFlush = undefined;
          const text = this.serialize();
          const write = writeAtomic(this.file, text);
          this.inFlight = write;
          write.then(flush.resolve, flush.reject);
        });
    });
  }

  /** Resolves once every change made so far is on disk. */
  whenDurable(): Promise<void> {
    return this.nextFlush?.promise ?? this.inFlight?.catch(() => {}) ?? Promise.resolve();
  }

  private serialize(): string {
    return JSON.stringify({ version: FILE_VERSION, savedAt: Date.now(), runs: [...this.records.values()] });
  }

  private index(record: SubagentRunRecord): void {
    this.records.set(record.runId, record);
    this.byChild.set(record.childSessionKey, record.runId);
    let siblings = this.byRequester.get(record.requesterSessionKey);
    if (!siblings) {
      siblings = new Set();
      this.byRequester.set(record.requesterSessionKey, siblings);
    }
    siblings.add(record.runId);
  }

  /** Memory stays bounded even with archiving off: the oldest settled records go first. */
  private dropOldEnded(): void {
    const settled = [...this.records.values()].filter((r) => r.endedAt && !isOwed(r));
    if (settled.length <= this.maxEnded) return;
    settled.sort((a, b) => a.endedAt! - b.endedAt!);
    for (const record of settled.slice(0, settled.length - this.maxEnded)) this.remove(record.runId);
  }
}

/** An announcement is still owed while it is pending or its requester has not answered it. */
export function isOwed(record: SubagentRunRecord): boolean {
  return record.announce?.state === "pending" || record.announce?.state === "accepted";
}

function isRecord(value: unknown): value is SubagentRunRecord {
  const r = value as Partial<SubagentRunRecord> | null;
  return typeof r === "object" && r !== null && typeof r.runId === "string" && typeof r.childSessionKey === "string" && typeof r.requesterSessionKey === "string";
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const handle = await fs.promises.open(tmp, "w", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  fsyncDirectory(path.dirname(file));
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, never ending in half a character. */
function headOfUtf8(text: string, maxBytes: number): string {
  const head = Buffer.from(text, "utf8").subarray(0, maxBytes).toString("utf8");
  // A cut multi-byte sequence decodes as U+FFFD at the very end.
  return head.endsWith("\uFFFD") && !text.startsWith(head) ? head.slice(0, -1) : head;
}
