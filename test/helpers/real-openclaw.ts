import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeTempDir } from "./gateway-process.js";

export interface RealOpenclawRun {
  code: number | string;
  output: string;
  /** The output with the note boxes' borders removed and every run of whitespace one space, so wrapped lines read as one. */
  text: string;
}

/**
 * Runs the real OpenClaw CLI against a gateway on 127.0.0.1:`port`, for the checks in
 * test/checks (their scripts provide Node 24 and the package as OPENCLAW_CHECK_NODE and
 * OPENCLAW_CHECK_CLI): its own HOME holds a config naming only that gateway and its token, and
 * its environment has nothing of this one (no provider keys).
 */
export async function runRealOpenclaw(args: string[], gateway: { port: number; token: string }, timeoutMs: number): Promise<RealOpenclawRun> {
  const node = process.env.OPENCLAW_CHECK_NODE ?? "";
  const cli = process.env.OPENCLAW_CHECK_CLI ?? "";
  if (!fs.existsSync(node) || !fs.existsSync(cli)) throw new Error("run this check through its script in test/checks: it provides Node 24 and the openclaw package");
  const home = makeTempDir("real-openclaw-home-");
  try {
    fs.mkdirSync(path.join(home, ".openclaw"), { mode: 0o700 });
    const config = { gateway: { mode: "local", port: gateway.port, auth: { mode: "token", token: gateway.token } } };
    fs.writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify(config), { mode: 0o600 });
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: os.tmpdir(), OPENCLAW_GATEWAY_TOKEN: gateway.token, NO_COLOR: "1" };
    const proc = spawn(node, [cli, ...args], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
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
