import fs from "node:fs";
import { randomUUID } from "node:crypto";
import type { Logger } from "../../infra/logger.js";
import { buildAcpSessionKey } from "../../sessions/keys/index.js";
import type { AcpSettings } from "../config.js";
import {
  AcpRuntimeError,
  type AcpRuntime,
  type AcpRuntimeDoctorReport,
  type AcpRuntimeEvent,
  type AcpRuntimeHandle,
  type AcpRuntimePromptMode,
  type AcpRuntimeSessionMode,
  type AcpTurnTimeout,
  type AcpTurnUsage,
} from "../runtime/types.js";
import { ConcurrencyGate } from "./concurrency-gate.js";
import { endOrphanAgent } from "./orphans.js";
import { AcpSessionRecords, type AcpSessionRecord } from "./session-records.js";

/** A runtime the manager can run: the contract plus the liveness facts it persists. */
export interface AcpManagedRuntime extends AcpRuntime {
  isAlive(sessionKey: string): boolean;
  describe(sessionKey: string): { loadSession: boolean; pid?: number } | undefined;
  closeAll(reason: string): Promise<void>;
}

export interface AcpSessionManagerDeps {
  stateDir: string;
  settings: () => AcpSettings;
  logger: Logger;
  /** Builds the runtime; `onProcess` must be called when a session's process is spawned (its pid) and when it ends or fails to start (undefined). */
  createRuntime: (hooks: { onProcess: (sessionKey: string, pid: number | undefined) => void }) => AcpManagedRuntime;
  now?: () => number;
}

export type AcpSessionResolution =
  | { kind: "none"; sessionKey: string }
  | { kind: "stale"; sessionKey: string; error: AcpRuntimeError }
  | { kind: "ready"; sessionKey: string; meta: AcpSessionRecord };

export interface AcpCreateSessionInput {
  agent: string;
  mode: AcpRuntimeSessionMode;
  cwd: string;
  resumeSessionId?: string;
  label?: string;
  requesterSessionKey?: string;
  /** The `type: "acp"` binding whose chat this session serves. */
  binding?: string;
}

export interface AcpRunTurnInput {
  sessionKey: string;
  text: string;
  mode: AcpRuntimePromptMode;
  onEvent?: (event: AcpRuntimeEvent) => void;
  signal?: AbortSignal;
  /** The turn's own limit (a child's run timeout, a bound chat's run budget); start-up has acpx timeoutSeconds. */
  timeout?: AcpTurnTimeout;
}

export interface AcpTurnResult {
  ok: boolean;
  /** The agent's visible reply (its message chunks, thoughts left out). */
  text: string;
  stopReason?: string;
  usage?: AcpTurnUsage;
  error?: { code: string; message: string };
  durationMs: number;
}

/**
 * The ACP control plane: one per gateway. It owns the session records (on disk before any
 * process starts), starts agent processes lazily and at most `acp.maxConcurrentSessions` at a
 * time, runs one turn per session at a time, closes oneshot sessions after their turn and idle
 * persistent ones after `acp.idleTimeoutSeconds`, and after a restart ends orphaned processes and
 * resumes (session/load) or marks stale what the last process left. See docs/acp.md.
 */
export class AcpSessionManager {
  readonly records: AcpSessionRecords;
  private readonly runtime: AcpManagedRuntime;
  private readonly gate: ConcurrencyGate;
  private readonly handles = new Map<string, AcpRuntimeHandle>();
  private readonly slots = new Map<string, () => void>();
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly turns = new Map<string, AbortController>();
  /** Turns queued behind a session's running one (a steer): a oneshot session stays open for them. */
  private readonly waiting = new Map<string, number>();
  /** The record change that holds each live process's pid: on disk before its first prompt. */
  private readonly pidWrites = new Map<string, number>();
  private readonly now: () => number;
  private sweepTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly deps: AcpSessionManagerDeps) {
    this.now = deps.now ?? Date.now;
    this.records = new AcpSessionRecords(deps.stateDir, (message) => deps.logger.warn(message));
    this.gate = new ConcurrencyGate(() => deps.settings().maxConcurrentSessions);
    this.runtime = deps.createRuntime({ onProcess: (key, pid) => this.onProcess(key, pid) });
  }

  /** Loads the records, ends processes a crashed gateway left behind, and settles what they were doing. */
  start(): void {
    this.records.load();
    for (const record of this.records.all()) {
      if (record.state === "closed" || record.state === "stale") continue;
      if (record.pid) endOrphanAgent(record.pid, this.deps.settings().agents[record.agent]?.command, this.deps.logger);
      const resumable = record.mode === "persistent" && record.backendSessionId !== undefined && record.loadSession === true;
      if (resumable) this.records.update(record.sessionKey, { state: "idle", pid: undefined });
      else {
        const why =
          record.mode === "oneshot"
            ? "its turn was interrupted by a gateway restart"
            : `the gateway restarted and ACP agent \`${record.agent}\` cannot resume sessions (no session/load)`;
        this.records.update(record.sessionKey, { state: "stale", pid: undefined, lastError: why });
      }
    }
    this.sweepTimer = setInterval(() => void this.sweepIdle(), 5_000);
    this.sweepTimer.unref();
  }

  /** Ends every agent process; resumable sessions stay resumable for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    for (const controller of this.turns.values()) controller.abort(new Error("the gateway is stopping"));
    await this.runtime.closeAll("gateway stopping");
    await this.records.settled();
  }

  resolve(sessionKey: string): AcpSessionResolution {
    const record = this.records.get(sessionKey);
    if (!record || record.state === "closed") return { kind: "none", sessionKey };
    if (record.state === "stale")
      return {
        kind: "stale",
        sessionKey,
        error: new AcpRuntimeError("ACP_SESSION_STALE", `ACP session ${sessionKey} cannot continue: ${record.lastError ?? "its agent is gone"}.`),
      };
    return { kind: "ready", sessionKey, meta: record };
  }

  list(): AcpSessionRecord[] {
    return this.records.all();
  }

  get activeProcesses(): number {
    return this.gate.active;
  }

  get queuedStarts(): number {
    return this.gate.queued;
  }

  /** Records a new session (durably) without starting its process: the first turn does. */
  createSession(input: AcpCreateSessionInput): AcpSessionRecord {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(input.cwd);
    } catch {
      stat = undefined;
    }
    if (!stat) throw new AcpRuntimeError("ACP_SESSION_FAILED", `The working directory ${input.cwd} does not exist.`);
    if (!stat.isDirectory()) throw new AcpRuntimeError("ACP_SESSION_FAILED", `The working directory ${input.cwd} is not a directory.`);
    const now = this.now();
    const record: AcpSessionRecord = {
      sessionKey: buildAcpSessionKey(input.agent, randomUUID()),
      agent: input.agent,
      cwd: input.cwd,
      mode: input.mode,
      state: "starting",
      ...(input.resumeSessionId ? { backendSessionId: input.resumeSessionId } : {}),
      ...(input.label ? { label: input.label } : {}),
      ...(input.requesterSessionKey ? { requesterSessionKey: input.requesterSessionKey } : {}),
      ...(input.binding ? { binding: input.binding } : {}),
      createdAt: now,
      lastActiveAt: now,
      turns: 0,
    };
    this.records.put(record);
    return record;
  }

  /** Runs one turn; turns of one session run one after another (a steer cancels the current one first). */
  runTurn(input: AcpRunTurnInput): Promise<AcpTurnResult> {
    if (input.mode === "steer") this.turns.get(input.sessionKey)?.abort(new Error("steered"));
    const previous = this.tails.get(input.sessionKey) ?? Promise.resolve();
    this.waiting.set(input.sessionKey, (this.waiting.get(input.sessionKey) ?? 0) + 1);
    const next = previous
      .catch(() => {})
      .then(() => {
        const left = (this.waiting.get(input.sessionKey) ?? 1) - 1;
        if (left > 0) this.waiting.set(input.sessionKey, left);
        else this.waiting.delete(input.sessionKey);
        return this.runOneTurn(input);
      });
    this.tails.set(input.sessionKey, next);
    void next.finally(() => {
      if (this.tails.get(input.sessionKey) === next) this.tails.delete(input.sessionKey);
    });
    return next;
  }

  private async runOneTurn(input: AcpRunTurnInput): Promise<AcpTurnResult> {
    const started = this.now();
    const fail = (error: AcpRuntimeError): AcpTurnResult => {
      input.onEvent?.({ type: "error", code: error.code, message: error.message, retryable: error.retryable });
      return { ok: false, text: "", error: { code: error.code, message: error.message }, durationMs: this.now() - started };
    };
    if (this.stopped) return fail(new AcpRuntimeError("ACP_SESSION_CLOSED", "The gateway is stopping."));
    const resolution = this.resolve(input.sessionKey);
    if (resolution.kind === "none") return fail(new AcpRuntimeError("ACP_SESSION_CLOSED", `ACP session ${input.sessionKey} does not exist or was closed.`));
    if (resolution.kind === "stale") return fail(resolution.error);
    const record = resolution.meta;
    const controller = new AbortController();
    const onAbort = () => controller.abort(input.signal!.reason);
    input.signal?.addEventListener("abort", onAbort, { once: true });
    this.turns.set(input.sessionKey, controller);
    try {
      let handle: AcpRuntimeHandle;
      try {
        handle = await this.ensureLive(record, controller.signal);
      } catch (err) {
        const error = err instanceof AcpRuntimeError ? err : new AcpRuntimeError("ACP_SPAWN_FAILED", `ACP agent \`${record.agent}\` could not start: ${(err as Error).message}`);
        this.records.update(record.sessionKey, { state: "stale", lastError: error.message, lastActiveAt: this.now() });
        return fail(error);
      }
      // Written in the background: the prompt goes out first (the record is on disk since
      // createSession). The pid, noted when the process started, must be on disk by now, so a
      // gateway killed mid-turn leaves enough to end the orphan; its write overlapped the
      // agent's own start-up, so this rarely waits.
      this.records.note(record.sessionKey, { state: "running", lastActiveAt: this.now() });
      await this.records.writtenThrough(this.pidWrites.get(record.sessionKey) ?? 0);
      let text = "";
      let ending: AcpRuntimeEvent | undefined;
      for await (const event of this.runtime.runTurn({
        handle,
        text: input.text,
        mode: input.mode,
        requestId: randomUUID(),
        signal: controller.signal,
        ...(input.timeout ? { timeout: input.timeout } : {}),
      })) {
        if (event.type === "text_delta" && event.stream !== "thought") text += event.text;
        if (event.type === "done" || event.type === "error") ending = event;
        try {
          input.onEvent?.(event);
        } catch (err) {
          this.deps.logger.warn({ sessionKey: record.sessionKey, err: (err as Error).message }, "acp event consumer failed");
        }
      }
      const alive = this.runtime.isAlive(record.sessionKey);
      const patch: Partial<AcpSessionRecord> = { turns: record.turns + 1, lastActiveAt: this.now() };
      if (ending?.type === "error") patch.lastError = ending.message;
      else patch.lastError = undefined;
      // An agent that died in the turn leaves its session stale; it is not silently restarted.
      const died = !alive && ending?.type === "error" && ending.code === "ACP_AGENT_EXITED";
      if (died) patch.state = "stale";
      // A oneshot session ends with its task, unless a steer waits to run in it.
      else if (record.mode === "oneshot" && !this.waiting.has(record.sessionKey)) {
        await this.closeProcess(record.sessionKey, "oneshot turn ended");
        patch.state = "closed";
      } else if (alive) patch.state = "ready";
      else if (record.loadSession && record.backendSessionId) patch.state = "idle";
      else {
        patch.state = "stale";
        patch.lastError = ending?.type === "error" ? ending.message : `ACP agent \`${record.agent}\` ended`;
      }
      this.records.update(record.sessionKey, patch);
      const durationMs = this.now() - started;
      if (ending?.type === "done")
        return { ok: true, text, ...(ending.stopReason ? { stopReason: ending.stopReason } : {}), ...(ending.usage ? { usage: ending.usage } : {}), durationMs };
      const error =
        ending?.type === "error" ? { code: ending.code ?? "ACP_TURN_FAILED", message: ending.message } : { code: "ACP_TURN_FAILED", message: "the turn ended without an outcome" };
      return { ok: false, text, error, durationMs };
    } finally {
      input.signal?.removeEventListener("abort", onAbort);
      if (this.turns.get(input.sessionKey) === controller) this.turns.delete(input.sessionKey);
    }
  }

  /** The session's live process, started (or resumed with session/load) in a free slot. */
  private async ensureLive(record: AcpSessionRecord, signal: AbortSignal): Promise<AcpRuntimeHandle> {
    const existing = this.handles.get(record.sessionKey);
    if (existing && this.runtime.isAlive(record.sessionKey)) return existing;
    const resume = record.backendSessionId;
    const release = await this.gate.acquire(signal);
    try {
      const handle = await this.runtime.ensureSession({
        sessionKey: record.sessionKey,
        agent: record.agent,
        mode: record.mode,
        cwd: record.cwd,
        ...(resume ? { resumeSessionId: resume } : {}),
      });
      this.slots.set(record.sessionKey, release);
      this.handles.set(record.sessionKey, handle);
      const facts = this.runtime.describe(record.sessionKey);
      // In the background: a gateway killed before this is on disk leaves the session stale
      // instead of resumable (the pid, for ending the orphan, was noted at spawn).
      this.records.note(record.sessionKey, {
        state: "ready",
        backendSessionId: handle.backendSessionId,
        loadSession: facts?.loadSession ?? false,
      });
      return handle;
    } catch (err) {
      release();
      throw err;
    }
  }

  private onProcess(sessionKey: string, pid: number | undefined): void {
    if (pid !== undefined) {
      this.pidWrites.set(sessionKey, this.records.note(sessionKey, { pid }));
      return;
    }
    this.pidWrites.delete(sessionKey);
    this.slots.get(sessionKey)?.();
    this.slots.delete(sessionKey);
    this.handles.delete(sessionKey);
    const record = this.records.get(sessionKey);
    if (!record || this.stopped) return;
    const patch: Partial<AcpSessionRecord> = { pid: undefined };
    // A process that ends between turns: resumable later, or the session cannot continue.
    if (record.state === "ready") {
      if (record.mode === "persistent" && record.loadSession && record.backendSessionId) patch.state = "idle";
      else Object.assign(patch, { state: "stale", lastError: `ACP agent \`${record.agent}\` ended while idle` });
    }
    this.records.update(sessionKey, patch);
  }

  async cancel(sessionKey: string, reason = "cancelled"): Promise<boolean> {
    const controller = this.turns.get(sessionKey);
    if (!controller) return false;
    controller.abort(new Error(reason));
    return true;
  }

  /** Ends the session for good: its turn is cancelled and its process closed. */
  async close(sessionKey: string, reason: string): Promise<boolean> {
    const record = this.records.get(sessionKey);
    if (!record || record.state === "closed") return false;
    this.turns.get(sessionKey)?.abort(new Error(reason));
    this.records.update(sessionKey, { state: "closed", lastActiveAt: this.now() });
    await this.closeProcess(sessionKey, reason);
    return true;
  }

  async status(sessionKey: string): Promise<{ record: AcpSessionRecord; runtime?: string } | undefined> {
    const record = this.records.get(sessionKey);
    if (!record) return undefined;
    const handle = this.handles.get(sessionKey);
    const status = handle && this.runtime.getStatus ? await this.runtime.getStatus({ handle }) : undefined;
    return { record, ...(status ? { runtime: status.summary } : {}) };
  }

  async doctor(): Promise<AcpRuntimeDoctorReport> {
    if (!this.runtime.doctor) return { ok: false, agents: [] };
    return this.runtime.doctor();
  }

  private async closeProcess(sessionKey: string, reason: string): Promise<void> {
    const handle = this.handles.get(sessionKey);
    if (handle) await this.runtime.close({ handle, reason });
    this.handles.delete(sessionKey);
    this.slots.get(sessionKey)?.();
    this.slots.delete(sessionKey);
  }

  /** Closes the processes of persistent sessions idle longer than `acp.idleTimeoutSeconds`. */
  async sweepIdle(): Promise<void> {
    const idleSeconds = this.deps.settings().idleTimeoutSeconds;
    if (idleSeconds <= 0 || this.stopped) return;
    const cutoff = this.now() - idleSeconds * 1000;
    for (const record of this.records.all()) {
      if (record.state !== "ready" || record.lastActiveAt > cutoff || this.turns.has(record.sessionKey)) continue;
      const resumable = record.loadSession === true && record.backendSessionId !== undefined;
      this.records.update(record.sessionKey, { state: resumable ? "idle" : "closed", lastError: `closed after ${idleSeconds} s idle` });
      await this.closeProcess(record.sessionKey, "idle timeout");
    }
  }
}
