import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "./gateway-process.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** The real CLI's own floor (its package.json `engines`). */
const OPENCLAW_MIN_NODE = [24, 16] as const;

/** The output of a build script that prints one folder, or an error naming the script and why. */
function builtFolder(script: string, what: string): string {
  try {
    return execFileSync(process.execPath, [path.join(REPO, "build", script)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`build/${script} could not provide ${what}: ${stderr || (err as Error).message}`);
  }
}

/** The Node that runs the real CLI: this one when new enough, else Node 24 from build/node24.mjs. Never a skip. */
function openclawNode(): string {
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  if (major > OPENCLAW_MIN_NODE[0] || (major === OPENCLAW_MIN_NODE[0] && minor >= OPENCLAW_MIN_NODE[1])) return process.execPath;
  return path.join(builtFolder("node24.mjs", "Node 24"), "bin", "node");
}

export interface RealOpenclawRun {
  code: number | string;
  output: string;
  /** The output with the note boxes' borders removed and every run of whitespace one space, so wrapped lines read as one. */
  text: string;
}

/**
 * Runs the real OpenClaw CLI (build/openclaw-cli.mjs) against a gateway on 127.0.0.1:`port`:
 * its own HOME holds a config naming only that gateway and its token, and its environment has
 * nothing of this one (no provider keys).
 */
export async function runRealOpenclaw(args: string[], gateway: { port: number; token: string }, timeoutMs: number): Promise<RealOpenclawRun> {
  const cli = path.join(builtFolder("openclaw-cli.mjs", "the real OpenClaw CLI"), "openclaw.mjs");
  const home = makeTempDir("real-openclaw-home-");
  try {
    fs.mkdirSync(path.join(home, ".openclaw"), { mode: 0o700 });
    const config = { gateway: { mode: "local", port: gateway.port, auth: { mode: "token", token: gateway.token } } };
    fs.writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify(config), { mode: 0o600 });
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: os.tmpdir(), OPENCLAW_GATEWAY_TOKEN: gateway.token, NO_COLOR: "1" };
    const proc = spawn(openclawNode(), [cli, ...args], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    proc.stdout.on("data", (d: Buffer) => (output += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    const code = await new Promise<number | string>((resolve) => proc.once("exit", (c, signal) => resolve(c ?? signal ?? "unknown")));
    clearTimeout(timer);
    return { code, output, text: output.replace(/[│┌└├◇╮╯─]/g, " ").replace(/\s+/g, " ") };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
