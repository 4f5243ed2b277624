import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const STDERR_TAIL_BYTES = 4096;
const KILL_GRACE_MS = 2_000;
const STDERR_DRAIN_MS = 250;

/**
 * One external agent process, started in its own process group so that everything it starts
 * (shells, language servers, the adapter's own CLI) can be ended with it. `exited` resolves
 * once Node has reaped it: a process ended through `kill()` never lingers as a zombie.
 */
export class AgentProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly exited: Promise<AgentExit>;
  private stderrTail = "";
  private exit?: AgentExit;

  constructor(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; onStderr?: (line: string) => void }) {
    this.child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        const exit = { code, signal };
        this.exit = exit;
        // The last stderr lines (why it exited) may still be in the pipe; a grandchild holding
        // the pipe open delays the exit report by STDERR_DRAIN_MS at most.
        void drained(this.child.stderr, STDERR_DRAIN_MS).then(() => resolve(exit));
      });
      // A spawn failure (EACCES, ENOENT past our lookup) emits "error" and no "exit".
      this.child.once("error", (err) => {
        this.stderrTail += `\n${err.message}`;
        if (!this.exit) {
          this.exit = { code: null, signal: null };
          resolve(this.exit);
        }
      });
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
      if (opts.onStderr) for (const line of text.split("\n")) if (line.trim()) opts.onStderr(line);
    });
    // Writes after the agent died fail with EPIPE; the exit is what reports it.
    this.child.stdin.on("error", () => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /** The last lines the agent wrote to stderr (its own explanation of a failure). */
  stderr(): string {
    return this.stderrTail.trim();
  }

  describeExit(exit: AgentExit): string {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const tail = this.stderr().split("\n").slice(-3).join(" | ");
    return tail ? `${how} (stderr: ${tail.slice(0, 400)})` : how;
  }

  /** Ends the whole process group: SIGTERM, then SIGKILL after a grace period. Resolves once reaped. */
  async kill(graceMs = KILL_GRACE_MS): Promise<AgentExit> {
    if (this.exit) {
      signalGroup(this.child.pid, "SIGKILL");
      return this.exit;
    }
    this.child.stdin.end();
    signalGroup(this.child.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(this.child.pid, "SIGKILL"), graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    // Whatever it started and left behind in its group goes too.
    signalGroup(this.child.pid, "SIGKILL");
    return exit;
  }
}

export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function drained(stream: Readable, ms: number): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    stream.once("end", done);
    stream.once("close", done);
    function done() {
      clearTimeout(timer);
      stream.off("end", done);
      stream.off("close", done);
      resolve();
    }
  });
}
