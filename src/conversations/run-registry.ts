import type { ConversationRun, RunStatus } from "../agents/conversation-port.js";
import type { ChatSenders } from "../agents/questions/chat-answerers.js";

export type { RunStatus };

/** A run as the core keeps it: what readers see, plus how it is stopped. */
export interface RunRecord extends ConversationRun {
  done: Promise<RunRecord>;
  /** Why the run was stopped (RunRegistry.abort), the first reason given; unset while it was not. */
  abortReason?: Error;
  /**
   * Told when the run is stopped: set by the turn running it, cleared when that turn ends. A
   * plain callback rather than an AbortSignal per run: creating one costs microseconds on Node 20,
   * and its only listener is that turn.
   */
  onAbort?: (reason: Error) => void;
  /** How the message arrived (`chat.send`, `http`, `channel`, …): its trace's source. */
  method?: string;
  /** The chat senders whose message started the run (none for a run started elsewhere): its questions are theirs. */
  startedBy?: ChatSenders;
}

const KEEP_FINISHED_MS = 10 * 60_000;
const resolved = (): void => {};
/** Finished runs kept at most, however recent: memory must not grow with traffic. */
const MAX_FINISHED = 1_000;

/**
 * Runs this process knows about: active ones (for abort and `agent.wait`) and recently finished
 * ones (so a late `agent.wait` still gets the outcome). Finished runs are forgotten after 10 min.
 */
export class RunRegistry {
  private readonly runs = new Map<string, RunRecord & { resolve: (r: RunRecord) => void }>();
  /** Unfinished runs by session, in creation order: looked up on every turn, so not a scan. */
  private readonly unfinished = new Map<string, Set<RunRecord>>();

  create(runId: string, sessionKey: string, agentId: string, method?: string, startedBy?: ChatSenders): RunRecord {
    let resolve!: (r: RunRecord) => void;
    const done = new Promise<RunRecord>((r) => (resolve = r));
    const record = { runId, sessionKey, agentId, status: "queued" as RunStatus, acceptedAt: Date.now(), done, resolve, method, startedBy };
    this.runs.set(runId, record);
    let active = this.unfinished.get(sessionKey);
    if (!active) {
      active = new Set();
      this.unfinished.set(sessionKey, active);
    }
    active.add(record);
    return record;
  }

  /**
   * Stops a run that has not finished: its turn is told at once (`onAbort`), and a turn that has
   * not started yet finds `abortReason` set when it does. The first reason stays; a finished run
   * is left as it ended.
   */
  abort(run: RunRecord, reason: Error): void {
    if (run.endedAt !== undefined || run.abortReason) return;
    run.abortReason = reason;
    run.onAbort?.(reason);
  }

  get(runId: string): RunRecord | undefined {
    return this.runs.get(runId);
  }

  markRunning(runId: string): void {
    const run = this.runs.get(runId);
    if (run) {
      run.status = "running";
      run.startedAt = Date.now();
    }
  }

  finish(runId: string, status: Exclude<RunStatus, "queued" | "running">, result?: RunRecord["result"]): void {
    const run = this.runs.get(runId);
    if (!run || run.endedAt) return;
    run.status = status;
    run.endedAt = Date.now();
    const active = this.unfinished.get(run.sessionKey);
    active?.delete(run);
    if (active?.size === 0) this.unfinished.delete(run.sessionKey);
    // The transcript has the messages; keep only what agent.wait and duplicates report.
    run.result = result ? { ...result, messages: [] } : undefined;
    run.resolve(run);
    // Kept up to 10 minutes for agent.wait, a finished run lets go of what only a live run
    // needs: its turn's abort callback (which holds the whole turn) and the resolver of `done`.
    run.onAbort = undefined;
    run.resolve = resolved;
    this.finished.push(runId);
    this.evictFinished();
  }

  private readonly finished: string[] = [];

  private evictFinished(): void {
    const cutoff = Date.now() - KEEP_FINISHED_MS;
    while (this.finished.length > 0) {
      const oldest = this.runs.get(this.finished[0]!);
      if (this.finished.length <= MAX_FINISHED && oldest && (oldest.endedAt ?? 0) >= cutoff) break;
      this.finished.shift();
      if (oldest?.endedAt) this.runs.delete(oldest.runId);
    }
  }

  /** Unfinished runs of a session, oldest first. */
  activeFor(sessionKey: string): RunRecord[] {
    return [...(this.unfinished.get(sessionKey) ?? [])];
  }

  all(): RunRecord[] {
    return [...this.runs.values()];
  }
}
