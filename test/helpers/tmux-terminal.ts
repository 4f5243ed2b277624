import { execFileSync } from "node:child_process";
import path from "node:path";
import { CLI, makeTempDir } from "./gateway-process.js";

/** The text after the CLI's process ends in a tmux pane, so its exit code stays on the screen. */
export const EXITED = "cli exited with";

export const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });

/** The pane's screen as text, one row a line. */
export const screenOf = (session: string) => tmux("capture-pane", "-p", "-t", session);

/** Waits until the pane's screen matches `pattern`; the screen is in the error when it never does. */
export async function waitForScreen(session: string, pattern: RegExp, what: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screenOf(session);
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${what} (${pattern}); the screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs `openclaw <args>` (the built bin) in a new detached tmux session, 120x40, with its own HOME
 * and state dir; the shell around it prints its exit code and keeps the pane open.
 */
export function startCliInTmux(session: string, args: string[]): void {
  const home = makeTempDir();
  const command = [process.execPath, CLI, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
  tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "120",
    "-y",
    "40",
    "-e",
    `HOME=${home}`,
    "-e",
    `OPENCLAW_STATE_DIR=${path.join(home, ".openclaw")}`,
    "-e",
    "TERM=xterm-256color",
    "-e",
    "LANG=C.UTF-8",
    `${command}; echo "${EXITED} $?"; sleep 600`,
  );
}

export function killTmuxSession(session: string): void {
  try {
    tmux("kill-session", "-t", session);
  } catch {
    // Never started, or already gone.
  }
}
