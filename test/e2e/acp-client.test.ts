import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeTempDir } from "../helpers/gateway-process.js";

const FAKE_AGENT = fileURLToPath(new URL("../fakes/acp-agent/fake-acp-agent.mjs", import.meta.url));

/** `openclaw acp client` with piped stdin (no terminal): the lines are sent, then stdin ends. */
function runClient(lines: string[], agentArgs: string[] = [], cwd = makeTempDir("acp-client-")) {
  const proc = spawn(process.execPath, [CLI, "acp", "client", "--cwd", cwd, "--", process.execPath, FAKE_AGENT, ...agentArgs], {
    env: cleanEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  proc.stdin!.end(lines.map((l) => `${l}\n`).join(""));
  const killer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string; cwd: string }>((resolve) =>
    proc.on("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, cwd });
    }),
  );
}

describe("openclaw acp client", () => {
  it("sends each stdin line as a prompt and prints the streamed reply, thoughts and tool calls", async () => {
    const run = await runClient(["hello there #echo", "", "#thought #tool refactor"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("echo: hello there");
    expect(run.stdout).toContain("[tool] Edit src/utils.ts (pending)");
    expect(run.stdout).toContain("[tool] Edit src/utils.ts: completed");
    expect(run.stdout).toContain("Done: refactor");
    expect(run.stderr).toContain("Let me think.");
  });

  it("approves reads under the cwd by itself and denies everything else without a terminal", async () => {
    const cwd = makeTempDir("acp-client-");
    fs.writeFileSync(path.join(cwd, "notes.txt"), "notes");
    const run = await runClient(["#permission-read:notes.txt", "#permission-read:../elsewhere.txt", "#permission"], [], cwd);
    expect(run.code).toBe(0);
    const answers = run.stdout.split("\n").filter((l) => l.startsWith("permission:"));
    expect(answers).toEqual(["permission: allow-once (allow_once)", "permission: reject (reject_once)", "permission: reject (reject_once)"]);
    expect(run.stderr).toContain("[permission] denied (no terminal to ask): Edit src/utils.ts");
  });

  it("chooses options by kind, whatever ids the agent uses", async () => {
    const cwd = makeTempDir("acp-client-");
    const run = await runClient([`#permission-read:${path.join(cwd, "a.txt")}`, "#permission"], ["--variant", "gemini"], cwd);
    const answers = run.stdout.split("\n").filter((l) => l.startsWith("permission:"));
    expect(answers).toEqual(["permission: proceed_once (allow_once)", "permission: cancel (reject_once)"]);
  });

  it("an agent that dies mid-turn or cannot start ends the client with a clear error", async () => {
    const crashed = await runClient(["#crash"]);
    expect(crashed.code).toBe(1);
    expect(crashed.stderr).toContain("the agent exited (code 3)");

    const proc = spawn(process.execPath, [CLI, "acp", "client", "--", "openclaw-no-such-agent-binary"], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.stdin!.end("hi\n");
    const code = await new Promise((resolve) => proc.on("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("cannot start openclaw-no-such-agent-binary: ENOENT");
  });

  it("refuses bridge options next to an agent command instead of ignoring them", async () => {
    const proc = spawn(process.execPath, [CLI, "acp", "client", "--session", "main", "--", process.execPath, FAKE_AGENT], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.stdin!.end();
    expect(await new Promise((resolve) => proc.on("exit", resolve))).toBe(1);
    expect(stderr).toContain("--session: options of the openclaw acp bridge");
  });
});
