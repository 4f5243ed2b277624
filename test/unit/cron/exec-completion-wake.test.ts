import os from "node:os";
import { describe, expect, it } from "vitest";
import { ProcessSession, type CompletionSettings } from "../../../src/agents/tools/process-session.js";
import { wakeHeartbeatOnExit } from "../../../src/cron/heartbeat/exec-completion-wake.js";
import { execToolOptionsFromConfig } from "../../../src/agents/exec-tool-options.js";
import { validateConfig } from "../../../src/config/index.js";

const MAIN = "agent:main:main";

/** A real shell command of the main session, run to its end. */
async function ended(command: string, completion?: CompletionSettings, sessionKey = MAIN): Promise<ProcessSession> {
  const session = new ProcessSession({
    command,
    cwd: os.tmpdir(),
    env: process.env,
    timeoutMs: 10_000,
    maxOutputChars: 10_000,
    agentId: "main",
    sessionKey,
    ...(completion ? { completion } : {}),
  });
  await session.finished;
  return session;
}

function recorder() {
  const queued: string[] = [];
  const woken: string[] = [];
  const heartbeat = { queueEvent: (_agent: string, text: string) => queued.push(text), wakeNow: (agent: string) => woken.push(agent) };
  const onExit = wakeHeartbeatOnExit(heartbeat, { resolveSessionKey: () => ({ sessionKey: MAIN }) } as never, () => "main");
  return { queued, woken, onExit };
}

describe("a background command's ending wakes the agent", () => {
  it("with output or a failure by default; a quiet success, another session's command or notifyOnExit false does not", async () => {
    const { queued, woken, onExit } = recorder();
    onExit(await ended("echo built"));
    onExit(await ended("exit 3"));
    onExit(await ended("true"));
    onExit(await ended("echo elsewhere", undefined, "agent:main:other"));
    onExit(await ended("echo muted", { notifyOnExit: false, notifyOnExitEmptySuccess: true }));
    expect(queued).toHaveLength(2);
    expect(queued[0]).toMatch(/exited with code 0\. Output ends: built$/);
    expect(queued[1]).toMatch(/\(exit 3\) exited with code 3\.$/);
    expect(woken).toEqual(["main", "main"]);
  });

  it("notifyOnExitEmptySuccess wakes it for a quiet success too", async () => {
    const { queued, onExit } = recorder();
    onExit(await ended("true", { notifyOnExit: true, notifyOnExitEmptySuccess: true }));
    expect(queued).toEqual([expect.stringMatching(/\(true\) exited with code 0\.$/)]);
  });
});

describe("tools.exec as exec's options", () => {
  const options = (exec: Record<string, unknown>) => execToolOptionsFromConfig(validateConfig({ tools: { exec } }, {}).config);

  it("sets only what the config sets, clamps backgroundMs to OpenClaw's 10-120000, and captures the completion settings", () => {
    expect(options({})).toEqual({});
    expect(options({ timeoutSeconds: 60, backgroundMs: 500_000 })).toEqual({ defaultTimeoutSeconds: 60, defaultYieldMs: 120_000 });
    expect(options({ backgroundMs: 0 })).toEqual({ defaultYieldMs: 10 });
    expect(options({ notifyOnExit: false, cleanupMs: 60_000 })).toEqual({ completion: { notifyOnExit: false, notifyOnExitEmptySuccess: false, retainMs: 60_000 } });
  });
});
