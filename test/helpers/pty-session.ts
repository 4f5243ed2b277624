import { spawn, type ChildProcess } from "node:child_process";
import { CLI, cleanEnv } from "./gateway-process.js";

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export interface PtySession {
  proc: ChildProcess;
  /** Everything printed so far, without terminal escape sequences. */
  screen(): string;
  /** Resolves once `text` has been printed after the last `send` (or from the start). */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  send(keys: string): void;
  exited: Promise<number | null>;
}

export const KEYS = { enter: "\r", down: "\x1b[B", ctrlC: "\x03" } as const;

/**
 * Runs the CLI on a real pseudo-terminal (util-linux `script`), 120×40, so interactive prompts
 * behave as in a terminal; keys are written to it as a user would type them.
 */
export function startPtyCli(args: string[], env: Record<string, string | undefined>): PtySession {
  const command = ["stty cols 120 rows 40;", "exec", JSON.stringify(process.execPath), JSON.stringify(CLI), ...args.map((a) => JSON.stringify(a))].join(" ");
  const proc = spawn("script", ["-qfec", command, "/dev/null"], { env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let mark = 0;
  const waiters = new Set<() => void>();
  proc.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  });
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const screen = () => out.replace(ANSI, "");
  return {
    proc,
    screen,
    exited,
    send(keys) {
      mark = screen().length;
      proc.stdin!.write(keys);
    },
    waitFor(text, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (screen().indexOf(text, mark) >= 0) {
            cleanup();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for "${text}" on the terminal:\n${screen().slice(-2000)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
