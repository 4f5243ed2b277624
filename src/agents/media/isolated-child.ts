import { spawn } from "node:child_process";

export interface IsolatedChildOptions {
  /** The child's own heap, in MB: input that needs more makes it stop, not the gateway. */
  heapMb: number;
  timeoutMs: number;
  /** What the child may print; more ends it. */
  maxReplyBytes: number;
}

/** Why an isolated child gave no answer: it took too long, printed too much, or stopped. */
export class IsolatedChildError extends Error {
  constructor(
    message: string,
    readonly reason: "timeout" | "too-large" | "stopped",
  ) {
    super(message);
  }
}

/**
 * Runs `script` in a Node process of its own, with an empty environment, `input` on its stdin,
 * and resolves with the one JSON line it prints. Untrusted files (PDFs, images) are decoded this
 * way, where a crash, a runaway file or a pixel bomb ends that process and never the gateway. It is
 * killed at the deadline or when its output passes `maxReplyBytes`; an exit without a line rejects
 * with the exit and the last line of its stderr.
 */
export function runIsolatedChild(script: string, args: readonly string[], input: Buffer | string, options: IsolatedChildOptions): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${options.heapMb}`, script, ...args], { stdio: ["pipe", "pipe", "pipe"], env: {} });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      child.kill("SIGKILL");
      outcome();
    };
    const deadline = setTimeout(() => finish(() => reject(new IsolatedChildError(`it took longer than ${options.timeoutMs} ms`, "timeout"))), options.timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.length > options.maxReplyBytes) finish(() => reject(new IsolatedChildError(`its output passed ${options.maxReplyBytes} bytes`, "too-large")));
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.on("error", (err) => finish(() => reject(err)));
    child.on("close", (code, signal) =>
      finish(() => {
        const line = stdout.trim();
        if (!line) return reject(new IsolatedChildError(`its reader stopped (${signal ?? `exit code ${code}`})${lastLine(stderr)}`, "stopped"));
        resolve(JSON.parse(line));
      }),
    );
    // A child that died before taking its input: its exit says why.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

function lastLine(text: string): string {
  const line = text.trim().split("\n").pop()?.trim();
  return line ? `: ${line}` : "";
}
