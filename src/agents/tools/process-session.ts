import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { SandboxLaunch } from "../sandbox/sandbox-backends.js";
import { StringDecoder } from "node:string_decoder";
import { OutputBuffer } from "./output-buffer.js";

let finishCounter = 0;

export type ProcessStatus = "running" | "exited" | "killed" | "timed_out" | "failed";

export interface StartProcessOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** 0 or less: no timeout. */
  timeoutMs: number;
  maxOutputChars: number;
  /** Owner of the session: the process tool only shows a conversation the sessions it started. */
  agentId?: string;
  sessionKey?: string;
  /** Runs the shell inside a sandbox: this program and its arguments come before `/bin/sh -c`. */
  launch?: SandboxLaunch;
  /** Called when the session is killed (removes what the sandbox left behind). */
  onKill?: () => void;
  /** What happens when it ends in the background, as the config said when it started (`tools.exec`). */
  completion?: CompletionSettings;
}

/** `tools.exec.notifyOnExit`, `notifyOnExitEmptySuccess` and `cleanupMs`, captured when a command starts. */
export interface CompletionSettings {
  /** Its ending wakes the agent (default true). */
  notifyOnExit: boolean;
  /** A success without output wakes it too (default false). */
  notifyOnExitEmptySuccess: boolean;
  /** How long it stays readable by `process` after it ended, in ms. */
  retainMs?: number;
}

export const DEFAULT_COMPLETION: CompletionSettings = { notifyOnExit: true, notifyOnExitEmptySuccess: false };

/** SIGTERM first so programs can clean up; whatever ignores it gets SIGKILL after this. */
const KILL_GRACE_MS = 2_000;
/**
 * After the shell exits, a background grandchild (`server &`) may still hold the output pipe
 * open; waiting for it would hang the call, so reading stops shortly after the exit.
 */
const DRAIN_AFTER_EXIT_MS = 200;

/**
 * One shell command in its own process group (spawned detached), so a timeout, an abort or
 * `process kill` can take down everything it started, not just the shell.
 */
export class ProcessSession {
  readonly id = `proc_${randomBytes(4).toString("hex")}`;
  readonly command: string;
  readonly cwd: string;
  readonly agentId: string | undefined;
  readonly sessionKey: string | undefined;
  readonly startedAt = Date.now();
  readonly pid: number | undefined;
  readonly output: OutputBuffer;
  readonly completion: CompletionSettings;
  /** Resolves once the process has exited and its output is read. Never rejects. */
  readonly finished: Promise<void>;

  status: ProcessStatus = "running";
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  endedAt: number | null = null;
  /** Strictly increasing across sessions: the order they finished in, even within one millisecond. */
  finishOrder = 0;
  /** Why we killed it, if we did; decides the final status. */
  private killReason: "killed" | "timed_out" | undefined;
  private pollOffset = 0;
  private readonly onKill: (() => void) | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;

  constructor(options: StartProcessOptions) {
    this.command = options.command;
    this.cwd = options.cwd;
    this.agentId = options.agentId;
    this.sessionKey = options.sessionKey;
    this.output = new OutputBuffer(options.maxOutputChars);
    this.completion = options.completion ?? DEFAULT_COMPLETION;

    // `exec 2>&1` first: stdout and stderr share one pipe, so the model sees them in the order
    // they were written. Two pipes read side by side would reorder them under load.
    const shell = ["/bin/sh", "-c", `exec 2>&1; ${options.command}`];
    const [file, args] = options.launch ? [options.launch.file, [...options.launch.args, ...shell]] : [shell[0]!, shell.slice(1)];
    this.onKill = options.onKill;
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      // No stdin: a command waiting for input gets EOF instead of hanging until the timeout.
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.pid = child.pid;

    // stderr should stay silent after the redirect; whatever the shell says before it is kept.
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder("utf8");
      stream.on("data", (chunk: Buffer) => this.output.append(decoder.write(chunk)));
      stream.on("end", () => this.output.append(decoder.end()));
      stream.on("error", () => {});
    }

    this.finished = new Promise<void>((resolve) => {
      let drainTimer: NodeJS.Timeout | undefined;
      const finish = (): void => {
        if (this.endedAt !== null) return;
        if (drainTimer) clearTimeout(drainTimer);
        if (this.timeoutTimer) clearTimeout(this.timeoutTimer);
        this.endedAt = Date.now();
        this.finishOrder = ++finishCounter;
        if (this.status === "running") {
          this.status = this.killReason ?? (this.exitCode === null && this.exitSignal === null ? "failed" : "exited");
        }
        child.stdout.destroy();
        child.stderr.destroy();
        resolve();
      };
      child.on("error", (error) => {
        this.output.append(`${this.output.totalChars > 0 ? "\n" : ""}[failed to start: ${error.message}]`);
        this.status = "failed";
        finish();
      });
      child.on("exit", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        drainTimer = setTimeout(finish, DRAIN_AFTER_EXIT_MS);
      });
      child.on("close", finish);
    });

    if (options.timeoutMs > 0) {
      this.timeoutTimer = setTimeout(() => this.kill("timed_out"), options.timeoutMs);
    }
  }

  get running(): boolean {
    return this.endedAt === null;
  }

  get durationMs(): number {
    return (this.endedAt ?? Date.now()) - this.startedAt;
  }

  /** Kills the whole process group: SIGTERM now, SIGKILL after a grace period. */
  kill(reason: "killed" | "timed_out" = "killed"): void {
    if (!this.running || this.pid === undefined) return;
    this.killReason ??= reason;
    killProcessGroup(this.pid, "SIGTERM");
    this.onKill?.();
    const pid = this.pid;
    // Sent even if the shell already died: grandchildren that ignore SIGTERM are still in the group.
    setTimeout(() => killProcessGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref();
  }

  /** Output written since the previous call (the `poll` cursor). */
  takeNewOutput(): { text: string; droppedChars: number } {
    const { text, nextOffset, droppedChars } = this.output.readFrom(this.pollOffset);
    this.pollOffset = nextOffset;
    return { text, droppedChars };
  }

  /** Marks everything so far as seen, e.g. when it was already returned to the model. */
  markOutputSeen(): void {
    this.pollOffset = this.output.totalChars;
  }

  /** A one-line state for the model: "running for 3.2 s", "exited with code 1 after 0.4 s". */
  describeStatus(): string {
    const seconds = `${(this.durationMs / 1000).toFixed(1)} s`;
    switch (this.status) {
      case "running":
        return `running for ${seconds} (pid ${this.pid ?? "?"})`;
      case "exited":
        return this.exitSignal ? `ended by signal ${this.exitSignal} after ${seconds}` : `exited with code ${this.exitCode} after ${seconds}`;
      case "killed":
        return `killed after ${seconds}`;
      case "timed_out":
        return `timed out and was killed after ${seconds}`;
      case "failed":
        return "failed to start";
    }
  }

  summary(): ProcessSessionSummary {
    return {
      sessionId: this.id,
      pid: this.pid,
      command: this.command,
      cwd: this.cwd,
      status: this.status,
      exitCode: this.exitCode,
      signal: this.exitSignal,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      durationMs: this.durationMs,
    };
  }
}

export interface ProcessSessionSummary {
  sessionId: string;
  pid: number | undefined;
  command: string;
  cwd: string;
  status: ProcessStatus;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  startedAt: number;
  endedAt: number | null;
  durationMs: number;
}

export function killProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone, which is what we wanted.
  }
}
