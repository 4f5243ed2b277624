import { afterEach, describe, expect, it } from "vitest";
import { createExecTool } from "../../../src/agents/tools/exec.js";
import { ProcessRegistry } from "../../../src/agents/tools/process-registry.js";
import { ProcessSession } from "../../../src/agents/tools/process-session.js";
import { createProcessTool } from "../../../src/agents/tools/process.js";
import type { ToolContext } from "../../../src/agents/types.js";
import { errorOf, isProcessGone, makeContext, makeWorkspace, neverAborted, textOf, waitFor } from "./helpers.js";

const exec = createExecTool();
const processTool = createProcessTool();
const registries: ProcessRegistry[] = [];

afterEach(() => {
  for (const registry of registries.splice(0)) registry.killAll();
});

function setup(options: ConstructorParameters<typeof ProcessRegistry>[0] = {}) {
  const { workspace } = makeWorkspace();
  const processes = new ProcessRegistry(options);
  registries.push(processes);
  return { workspace, processes, ctx: makeContext(workspace, { processes }) };
}

async function startBackground(ctx: ToolContext, command: string): Promise<{ sessionId: string; pid: number }> {
  const result = await exec.execute({ command, background: true }, ctx, neverAborted);
  return result.details as { sessionId: string; pid: number };
}

/** Polls until the session has finished, collecting everything poll returned. */
async function pollUntilDone(ctx: ToolContext, sessionId: string): Promise<{ output: string; last: string; details: Record<string, unknown> }> {
  let output = "";
  const deadline = Date.now() + 5000;
  for (;;) {
    const result = await processTool.execute({ action: "poll", sessionId }, ctx, neverAborted);
    const text = textOf(result);
    output += text.slice(0, text.lastIndexOf("\n\n["));
    const details = result.details as Record<string, unknown>;
    if (details.status !== "running") return { output, last: text, details };
    if (Date.now() > deadline) throw new Error("session did not finish");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("process", () => {
  it("poll returns only new output, then the exit code", async () => {
    const { ctx } = setup();
    const { sessionId } = await startBackground(ctx, "echo one; sleep 0.3; echo two; exit 4");
    const { output, last, details } = await pollUntilDone(ctx, sessionId);
    expect(output.replace(/\(no new output\)/g, "")).toBe("one\ntwo\n");
    expect(details).toMatchObject({ status: "exited", exitCode: 4 });
    expect(last).toMatch(/\[exited with code 4 after \d+\.\d s\]$/);
    const again = await processTool.execute({ action: "poll", sessionId }, ctx, neverAborted);
    expect(textOf(again).startsWith("(no new output)")).toBe(true);
  });

  it("log returns a line window: the last lines by default, or from an offset", async () => {
    const { ctx, processes } = setup();
    const { sessionId } = await startBackground(ctx, "for i in 1 2 3 4 5 6; do echo line$i; done");
    await processes.get(sessionId)?.finished;
    const tail = textOf(await processTool.execute({ action: "log", sessionId, limit: 2 }, ctx, neverAborted));
    expect(tail.startsWith("line5\nline6\n\n[lines 5-6 of 6;")).toBe(true);
    const window = textOf(await processTool.execute({ action: "log", sessionId, offset: 2, limit: 3 }, ctx, neverAborted));
    expect(window.startsWith("line2\nline3\nline4\n\n[lines 2-4 of 6;")).toBe(true);
  });

  it("kill stops the whole process group", async () => {
    const { ctx, processes } = setup();
    const { sessionId, pid } = await startBackground(ctx, "sleep 30 & echo $!; wait");
    let childPid = 0;
    await waitFor(
      () => {
        childPid = Number(processes.get(sessionId)?.output.text().trim());
        return childPid > 0;
      },
      3000,
      "the child pid",
    );
    const killed = await processTool.execute({ action: "kill", sessionId }, ctx, neverAborted);
    expect(textOf(killed)).toContain("killed");
    await waitFor(() => isProcessGone(childPid) && isProcessGone(pid), 4000, "the group to die");
    expect(processes.get(sessionId)?.status).toBe("killed");
    const list = await processTool.execute({ action: "list" }, ctx, neverAborted);
    expect(textOf(list)).toContain(`${sessionId}  killed after`);
  });

  it("lists only the calling agent's sessions", async () => {
    const { ctx, processes } = setup();
    await startBackground(ctx, "sleep 5");
    const other: ToolContext = { ...ctx, agentId: "other" };
    expect(textOf(await processTool.execute({ action: "list" }, other, neverAborted))).toBe("No background sessions.");
    expect(processes.list({ agentId: "main", sessionKey: "agent:main:main" })).toHaveLength(1);
    const mine = await processTool.execute({ action: "list" }, ctx, neverAborted);
    expect(textOf(mine)).toMatch(/^proc_[0-9a-f]{8} {2}running for .* \$ sleep 5$/);
  });

  it("another session of the same agent can neither list, read nor kill a conversation's jobs", async () => {
    const { ctx } = setup();
    const { sessionId } = await startBackground(ctx, "sleep 5");
    const sibling: ToolContext = { ...ctx, sessionKey: "agent:main:other-chat" };
    expect(textOf(await processTool.execute({ action: "list" }, sibling, neverAborted))).toBe("No background sessions.");
    for (const action of ["poll", "log", "kill"] as const) {
      expect(errorOf(await processTool.execute({ action, sessionId }, sibling, neverAborted)).error).toBe("SESSION_NOT_FOUND");
    }
    const still = await processTool.execute({ action: "poll", sessionId }, ctx, neverAborted);
    expect(still.details).toMatchObject({ status: "running" });
  });

  it("gives structured errors for unknown sessions, a missing sessionId, and no registry", async () => {
    const { ctx, workspace } = setup();
    const unknown = errorOf(await processTool.execute({ action: "poll", sessionId: "proc_nope" }, ctx, neverAborted));
    expect(unknown.error).toBe("SESSION_NOT_FOUND");
    expect(unknown.suggestion).toContain("list");
    expect(errorOf(await processTool.execute({ action: "log" }, ctx, neverAborted)).error).toBe("INVALID_ARGUMENT");
    expect(errorOf(await processTool.execute({ action: "list" }, makeContext(workspace), neverAborted)).error).toBe("PROCESS_UNAVAILABLE");
  });
});

describe("ProcessRegistry", () => {
  it("forgets finished sessions after the TTL and keeps at most maxFinished", async () => {
    let now = Date.now();
    const { workspace } = makeWorkspace();
    const registry = new ProcessRegistry({ finishedTtlMs: 1000, maxFinished: 2, now: () => now });
    registries.push(registry);
    // Started one after another, so they also finish in this order (a session starts when created).
    const sessions: ProcessSession[] = [];
    for (let i = 0; i < 3; i++) {
      const session = new ProcessSession({ command: "true", cwd: workspace, env: process.env, timeoutMs: 5000, maxOutputChars: 1000 });
      sessions.push(session);
      registry.adopt(session);
      await session.finished;
    }
    expect(registry.list().map((session) => session.id)).toEqual(sessions.slice(1).map((session) => session.id));
    now = Date.now() + 1001;
    expect(registry.list()).toEqual([]);
  });
});
