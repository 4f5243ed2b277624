import { spawn, type ChildProcess } from "node:child_process";
import type { LocalServiceSpec } from "./local-service-spec.js";
import { settledWithin } from "../settled-within.js";

/** How much of the server's latest output is kept for the error or log line that explains a failure. */
const OUTPUT_TAIL_CHARS = 8192;
/** Values shorter than this are not masked: they would blank ordinary words of the output. */
const MIN_MASKED_LENGTH = 4;
/** After SIGKILL, how long a stop waits to see the exit before it gives up on it. */
const KILL_WAIT_MS = 2_000;

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function describeExit(exit: ServiceExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code ?? 0}`;
}

/**
 * A server process this supervisor started. It leads its own process group, so a stop reaches
 * whatever it spawned (a wrapper script's server). Its stdout and stderr are read all along and
 * only their last 8 KiB are kept, with the configured env values, health headers and secrets
 * masked.
 */
export class ServiceProcess {
  exit: ServiceExit | undefined;
  readonly exited: Promise<ServiceExit>;
  private tail = "";

  private constructor(
    private readonly child: ChildProcess,
    private readonly masks: readonly string[],
  ) {
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
    const capture = (chunk: string) => this.capture(chunk);
    child.stdout?.setEncoding("utf8").on("data", capture);
    child.stderr?.setEncoding("utf8").on("data", capture);
    // The server never keeps this process alive: one that is done exits and takes it along (the exit hook).
    child.unref();
    unrefPipe(child.stdout);
    unrefPipe(child.stderr);
  }

  /** Resolves once the process runs; rejects when it cannot (a missing or non-executable command). */
  static start(spec: LocalServiceSpec): Promise<ServiceProcess> {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env ? { ...process.env, ...spec.env } : process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const masks = [...Object.values(spec.env ?? {}), ...Object.values(spec.healthHeaders ?? {}), ...(spec.secrets ?? [])].filter((value) => value.length >= MIN_MASKED_LENGTH);
    const started = new ServiceProcess(child, masks);
    return new Promise((resolve, reject) => {
      let running = false;
      child.once("spawn", () => {
        running = true;
        resolve(started);
      });
      // Once it runs, an error is a signal that could not be sent: its exit (or the stop's deadline) tells the rest.
      child.on("error", (err) => {
        if (!running) reject(err);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** The latest output, masked, trimmed; "" when it printed nothing. */
  outputTail(): string {
    return this.tail.trim();
  }

  /** SIGTERM to the group; SIGKILL once `graceMs` passed without an exit. */
  async stop(graceMs: number): Promise<void> {
    if (!this.alive) return;
    this.signalGroup("SIGTERM");
    if (await settledWithin(this.exited, graceMs)) return;
    this.signalGroup("SIGKILL");
    if (!(await settledWithin(this.exited, KILL_WAIT_MS))) throw new Error(`process ${this.pid} did not exit after SIGKILL`);
  }

  /** SIGKILL to the group at once: for a process that is exiting and cannot wait. */
  killNow(): void {
    if (this.alive) this.signalGroup("SIGKILL");
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // ESRCH: the group is gone already.
    }
  }

  private capture(chunk: string): void {
    let text = this.tail + chunk;
    for (const value of this.masks) text = text.replaceAll(value, "[redacted]");
    this.tail = text.length > OUTPUT_TAIL_CHARS ? text.slice(-OUTPUT_TAIL_CHARS) : text;
  }
}

function unrefPipe(stream: NodeJS.ReadableStream | null): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}
