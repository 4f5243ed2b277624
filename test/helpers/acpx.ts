import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { killIfStill } from "./kill-if-still.js";
import { nodeAtLeast } from "./node24.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
let acpxCli: string | undefined;

/** The real `acpx` CLI from npm, installed once by build/acpx.mjs (it cannot be a devDependency). */
function acpxCliPath(): string {
  if (acpxCli) return acpxCli;
  try {
    const dir = execFileSync(process.execPath, [path.join(REPO, "build", "acpx.mjs")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
    acpxCli = path.join(dir, "dist", "cli.js");
    return acpxCli;
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`build/acpx.mjs could not provide the acpx client: ${stderr || (err as Error).message}`);
  }
}
/** acpx's own floor (its package.json `engines`): it uses APIs newer Nodes have. */
const ACPX_MIN_NODE = [22, 13] as const;

/** The Node that runs acpx: this one when it is new enough, else Node 24 (node24.ts). */
export function acpxNode(): string {
  return nodeAtLeast(ACPX_MIN_NODE[0], ACPX_MIN_NODE[1], "acpx");
}

export interface AcpxRun {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Exit code (or signal name) once acpx has exited. */
  exited: Promise<number | string>;
}

/** Spawns `acpx <args>` under `node`, in `cwd`, with exactly `env`. */
export function runAcpx(node: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): AcpxRun {
  const proc = spawn(node, [acpxCliPath(), ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) => proc.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/**
 * Kills the queue owners acpx left running for this HOME (each one's lock file under
 * ~/.acpx/queues names its pid); `openclaw acp` ends when its owner's pipe closes. A lock can
 * outlive its owner, so a pid is killed only while it still runs acpx.
 */
export function stopQueueOwners(home: string): void {
  const queues = path.join(home, ".acpx", "queues");
  if (!fs.existsSync(queues)) return;
  for (const file of fs.readdirSync(queues).filter((f) => f.endsWith(".lock"))) {
    try {
      const { pid } = JSON.parse(fs.readFileSync(path.join(queues, file), "utf8")) as { pid?: number };
      if (typeof pid === "number") killIfStill(pid, acpxCliPath());
    } catch {
      // Already gone, or a lock being rewritten: nothing of ours left to stop.
    }
  }
}
