import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SAFE_BINS } from "../../../src/agents/approvals/exec-policy.js";
import { createExecApprovalGate } from "../../../src/agents/approvals/policy-gate.js";
import type { ExecApprovalGate } from "../../../src/agents/types.js";
import { buildExecEnv } from "../../../src/agents/tools/exec-env.js";
import { createExecTool } from "../../../src/agents/tools/exec.js";
import { ProcessRegistry } from "../../../src/agents/tools/process-registry.js";
import { errorOf, isProcessGone, makeContext, makeWorkspace, neverAborted, textOf, waitFor } from "./helpers.js";
import { withEnv } from "../../helpers/with-env.js";

const exec = createExecTool();
const registries: ProcessRegistry[] = [];

afterEach(() => {
  for (const registry of registries.splice(0)) registry.killAll();
});

function withRegistry(workspace: string, extra: Record<string, unknown> = {}) {
  const processes = new ProcessRegistry();
  registries.push(processes);
  return { ctx: makeContext(workspace, { processes, ...extra }), processes };
}

describe("exec", () => {
  it("returns interleaved stdout and stderr with the exit code, in the workspace", async () => {
    const { workspace } = makeWorkspace();
    const result = await exec.execute({ command: "echo out; echo err >&2; pwd" }, makeContext(workspace), neverAborted);
    expect(result.isError).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain("out\nerr\n");
    expect(text).toContain(workspace);
    expect(text).toMatch(/\[exit code 0 · \d+\.\d s\]$/);
    expect(result.details).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cwd: "." });
  });

  it("marks a non-zero exit as an error and reports the code", async () => {
    const { workspace } = makeWorkspace();
    const result = await exec.execute({ command: "echo failing; exit 3" }, makeContext(workspace), neverAborted);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("[exit code 3");
    expect(result.details).toMatchObject({ exitCode: 3 });
  });

  it("runs in a workdir inside the workspace and refuses one outside", async () => {
    const { workspace } = makeWorkspace();
    fs.mkdirSync(path.join(workspace, "sub"));
    const inside = await exec.execute({ command: "pwd", workdir: "sub" }, makeContext(workspace), neverAborted);
    expect(textOf(inside)).toContain(path.join(workspace, "sub"));
    expect(errorOf(await exec.execute({ command: "pwd", workdir: "../.." }, makeContext(workspace), neverAborted)).error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(errorOf(await exec.execute({ command: "pwd", workdir: "nope" }, makeContext(workspace), neverAborted)).error).toBe("WORKDIR_NOT_FOUND");
    expect(errorOf(await exec.execute({ command: "  " }, makeContext(workspace), neverAborted)).error).toBe("INVALID_ARGUMENT");
  });

  it("tells the model the default timeout the config set (tools.exec.timeoutSeconds), and a longer default is also the most it may ask for", () => {
    const described = (options?: Parameters<typeof createExecTool>[0]) => createExecTool(options).parameters.properties.timeoutSeconds.description;
    expect(described()).toBe("Kill the command after this many seconds (default 120, max 3600).");
    expect(described({ defaultTimeoutSeconds: 300 })).toBe("Kill the command after this many seconds (default 300, max 3600).");
    expect(described({ defaultTimeoutSeconds: 7200 })).toBe("Kill the command after this many seconds (default 7200, max 7200).");
  });

  it("kills the whole process group on timeout", async () => {
    const { workspace } = makeWorkspace();
    const started = Date.now();
    const result = await exec.execute({ command: "sleep 30 & echo $! > child.pid; echo started; wait", timeoutSeconds: 1 }, makeContext(workspace), neverAborted);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ timedOut: true, status: "timed_out" });
    expect(textOf(result)).toContain("started");
    expect(textOf(result)).toContain("timed out");
    const childPid = Number(fs.readFileSync(path.join(workspace, "child.pid"), "utf8"));
    await waitFor(() => isProcessGone(childPid), 4000, "the background sleep to die");
  });

  it("caps the output, keeping head and tail with a marker", async () => {
    const { workspace } = makeWorkspace();
    const small = createExecTool({ maxOutputChars: 1000 });
    const result = await small.execute(
      { command: "echo HEAD-MARK; i=0; while [ $i -lt 500 ]; do echo filler-line-$i; i=$((i+1)); done; echo TAIL-MARK" },
      makeContext(workspace),
      neverAborted,
    );
    const text = textOf(result);
    expect(text.startsWith("HEAD-MARK\n")).toBe(true);
    expect(text).toContain("TAIL-MARK\n");
    expect(text).toMatch(/\[… \d+ chars truncated …\]/);
    expect(text.length).toBeLessThan(1200);
    expect((result.details as { truncatedChars: number }).truncatedChars).toBeGreaterThan(5000);
  });

  it("kills the process group when the run is aborted", async () => {
    const { workspace } = makeWorkspace();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await exec.execute({ command: "echo $$ > shell.pid; sleep 30" }, makeContext(workspace), controller.signal);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ status: "aborted" });
    const pid = Number(fs.readFileSync(path.join(workspace, "shell.pid"), "utf8"));
    await waitFor(() => isProcessGone(pid), 4000, "the aborted command to die");
    const already = new AbortController();
    already.abort();
    expect(errorOf(await exec.execute({ command: "touch ran.txt" }, makeContext(workspace), already.signal)).error).toBe("ABORTED");
    expect(fs.existsSync(path.join(workspace, "ran.txt"))).toBe(false);
  });

  it("does not pass secrets to the command, and sets OPENCLAW_SHELL=exec", async () => {
    const { workspace } = makeWorkspace();
    const planted = {
      OPENAI_API_KEY: "sk-planted-1",
      GITHUB_TOKEN: "ghp-planted-2",
      MY_CLIENT_SECRET: "planted-3",
      DB_PASSWORD: "planted-4",
      OPENCLAW_GATEWAY_TOKEN: "planted-5",
      OPENCLAW_GATEWAY_PASSWORD: "planted-6",
      AWS_SECRET_ACCESS_KEY: "planted-7",
      AWS_ACCESS_KEY_ID: "AKIAPLANTED000000008",
      PGPASSWORD: "planted-9",
      DATABASE_URL: "postgres://app:planted-10@db.internal:5432/app",
      INNOCENT_LOOKING: "sk-planted-11-abcdefghijklmnop",
      HARMLESS_SETTING: "visible-value",
      PLAIN_URL: "https://example.com/path",
    };
    await withEnv(planted, async () => {
      const text = textOf(await exec.execute({ command: "env" }, makeContext(workspace), neverAborted));
      for (const value of Object.values(planted).filter((value) => /planted|PLANTED/.test(value))) expect(text).not.toContain(value);
      expect(text).toContain("HARMLESS_SETTING=visible-value");
      expect(text).toContain("PLAIN_URL=https://example.com/path");
      expect(text).toContain("OPENCLAW_SHELL=exec");
    });
    expect(buildExecEnv({ PATH: "/bin", lower_api_key: "x" })).toEqual({ PATH: "/bin", OPENCLAW_SHELL: "exec" });
  });

  it("asks the approval gate first and does not run a denied command", async () => {
    const { workspace } = makeWorkspace();
    const seen: string[] = [];
    const gate: ExecApprovalGate = {
      async check(command) {
        seen.push(command);
        return command.includes("rm") ? { allowed: false, reason: "rm is not on the allowlist" } : { allowed: true };
      },
    };
    const ctx = makeContext(workspace, { execApprovals: gate });
    const denied = errorOf(await exec.execute({ command: "touch marker && rm -f marker" }, ctx, neverAborted));
    expect(denied).toMatchObject({ error: "EXEC_DENIED", message: "rm is not on the allowlist" });
    expect(denied.suggestion).toBeTruthy();
    expect(fs.existsSync(path.join(workspace, "marker"))).toBe(false);
    expect((await exec.execute({ command: "echo fine" }, ctx, neverAborted)).isError).toBeUndefined();
    expect(seen).toEqual(["touch marker && rm -f marker", "echo fine"]);

    const broken: ExecApprovalGate = { check: async () => Promise.reject(new Error("approval service down")) };
    const failedClosed = errorOf(await exec.execute({ command: "echo x" }, makeContext(workspace, { execApprovals: broken }), neverAborted));
    expect(failedClosed).toMatchObject({ error: "EXEC_DENIED" });
    expect(failedClosed.message).toContain("approval service down");
  });

  it("an allowlist with ask off runs no program that is not on it, whatever the shell syntax", async () => {
    const { workspace } = makeWorkspace();
    const gate = createExecApprovalGate({ security: "allowlist", ask: "off", allowlist: ["echo", "ls", "true", "false"], safeBins: DEFAULT_SAFE_BINS });
    const ctx = makeContext(workspace, { execApprovals: gate });
    const attempts = [
      "echo hi & touch pwn",
      "echo hi |& touch pwn",
      "echo hi\ntouch pwn",
      "echo a#b; touch pwn",
      "echo $(touch pwn)",
      'echo "$(touch pwn)"',
      'echo "$x$(touch pwn)"',
      'echo "\\\\$(touch pwn)"',
      'echo "${x:-$(touch pwn)}"',
      'echo "$((0))$(touch pwn)"',
      "echo `touch pwn`",
      "(touch pwn)",
      "echo <(touch pwn)",
      "true && { touch pwn; }",
      "echo hi > pwn",
      "FOO=1 touch pwn",
      "head -n 3 /etc/passwd",
    ];
    for (const command of attempts) {
      const result = errorOf(await exec.execute({ command }, ctx, neverAborted));
      expect(result, command).toMatchObject({ error: "EXEC_DENIED" });
    }
    expect(fs.existsSync(path.join(workspace, "pwn"))).toBe(false);
    expect(textOf(await exec.execute({ command: "echo ok && true" }, ctx, neverAborted))).toContain("ok");
  });

  it("stops waiting for an approval when the run is aborted", async () => {
    const { workspace } = makeWorkspace();
    const pending: ExecApprovalGate = { check: () => new Promise(() => {}) };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await exec.execute({ command: "touch ran.txt" }, makeContext(workspace, { execApprovals: pending }), controller.signal);
    expect(errorOf(result).error).toBe("ABORTED");
    expect(fs.existsSync(path.join(workspace, "ran.txt"))).toBe(false);
  });

  it("background:true returns a running session at once", async () => {
    const { workspace } = makeWorkspace();
    const { ctx, processes } = withRegistry(workspace);
    const started = Date.now();
    const result = await exec.execute({ command: "sleep 30", background: true }, ctx, neverAborted);
    expect(Date.now() - started).toBeLessThan(1000);
    const handle = JSON.parse(textOf(result).split("\n")[0] ?? "");
    expect(handle).toMatchObject({ status: "running", sessionId: expect.stringMatching(/^proc_/), pid: expect.any(Number) });
    expect(result.details).toEqual(handle);
    expect(processes.get(handle.sessionId)?.running).toBe(true);
  });

  it("moves a command that outlives yieldMs to the background, where it finishes", async () => {
    const { workspace } = makeWorkspace();
    const { ctx, processes } = withRegistry(workspace);
    const result = await exec.execute({ command: "echo early; sleep 0.5; echo late", yieldMs: 100 }, ctx, neverAborted);
    const text = textOf(result);
    expect(text).toContain('"status":"running"');
    expect(text).toContain("Output so far:\nearly");
    const { sessionId } = result.details as { sessionId: string };
    const session = processes.get(sessionId);
    await session?.finished;
    expect(session?.status).toBe("exited");
    expect(session?.exitCode).toBe(0);
    // What the yield answer already showed is not repeated by the next poll.
    expect(session?.takeNewOutput().text).toBe("late\n");
  });

  it("runs in the foreground when there is no registry, even with background:true", async () => {
    const { workspace } = makeWorkspace();
    const result = await exec.execute({ command: "echo direct", background: true }, makeContext(workspace), neverAborted);
    expect(textOf(result)).toContain("direct\n");
    expect(result.details).toMatchObject({ exitCode: 0 });
  });
});
