import fs from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ExecApprovalDecision, ToolContext, ToolResult } from "../types.js";
import { buildExecEnv } from "./exec-env.js";
import { ProcessSession, type CompletionSettings } from "./process-session.js";
import { resolveWorkspacePath } from "./workspace-path.js";
import { sleep as delay } from "../../infra/sleep.js";

export const EXEC_DEFAULT_TIMEOUT_SECONDS = 120;
export const EXEC_MAX_TIMEOUT_SECONDS = 3600;
/** OpenClaw's default: a command still running after 10 s continues in the background. */
export const EXEC_DEFAULT_YIELD_MS = 10_000;
/** OpenClaw's `OPENCLAW_BASH_MAX_OUTPUT_CHARS` default. */
export const EXEC_DEFAULT_MAX_OUTPUT_CHARS = 200_000;
/** How much output a "still running" answer repeats; the rest is one `process log` away. */
const RUNNING_OUTPUT_PREVIEW_CHARS = 4_000;
/** After an abort we wait this long for the group to die (SIGKILL comes after 2 s). */
const ABORT_SETTLE_MS = 3_000;

/** The tool's parameters, telling the model the default timeout in force and the longest it may ask for. */
function execParameters(defaultTimeoutSeconds: number, maxTimeoutSeconds: number, defaultYieldMs: number) {
  return Type.Object({
    command: Type.String({ description: "Shell command; runs with /bin/sh -c." }),
    workdir: Type.Optional(Type.String({ description: "Directory to run in, relative to the workspace (default: workspace root)." })),
    timeoutSeconds: Type.Optional(
      Type.Number({ description: `Kill the command after this many seconds (default ${defaultTimeoutSeconds}, max ${maxTimeoutSeconds}).`, minimum: 0 }),
    ),
    background: Type.Optional(Type.Boolean({ description: "Return at once with a sessionId; follow the command with the process tool." })),
    yieldMs: Type.Optional(Type.Number({ description: `If still running after this many ms (default ${defaultYieldMs}), continue in the background.`, minimum: 0 })),
  });
}
type ExecParameters = ReturnType<typeof execParameters>;
export type ExecArgs = Static<ExecParameters>;

export interface ExecToolOptions {
  maxOutputChars?: number;
  defaultTimeoutSeconds?: number;
  defaultYieldMs?: number;
  /** What a command that ends in the background does (tools.exec.notifyOnExit, …). */
  completion?: CompletionSettings;
}

export function createExecTool(options: ExecToolOptions = {}): AgentTool<ExecParameters> {
  const maxOutputChars = options.maxOutputChars ?? EXEC_DEFAULT_MAX_OUTPUT_CHARS;
  const defaultTimeoutSeconds = options.defaultTimeoutSeconds ?? EXEC_DEFAULT_TIMEOUT_SECONDS;
  // A configured default longer than the usual cap is also the longest a command may ask for.
  const maxTimeoutSeconds = Math.max(EXEC_MAX_TIMEOUT_SECONDS, defaultTimeoutSeconds);
  const defaultYieldMs = options.defaultYieldMs ?? EXEC_DEFAULT_YIELD_MS;

  return {
    name: "exec",
    description:
      "Run a shell command in the workspace and get its output and exit code. Use for builds, tests, git, " +
      "listing or searching files (ls, rg), and other programs. Long commands continue in the background " +
      "(see the process tool). Do not use for reading or editing files: use read, write, edit or apply_patch.",
    parameters: execParameters(defaultTimeoutSeconds, maxTimeoutSeconds, defaultYieldMs),
    ownerOnly: true,
    async execute(args, ctx, signal) {
      if (signal.aborted) return abortedBeforeStart();
      const command = typeof args.command === "string" ? args.command : "";
      if (command.trim() === "") {
        return toolError(TOOL_ERRORS.execCommandEmpty());
      }

      const workdir = resolveWorkspacePath(ctx.workspaceDir, args.workdir ?? ".");
      if (!workdir.ok) return workdir.result;
      if (!isDirectory(workdir.absolute)) {
        return toolError(TOOL_ERRORS.execWorkdirMissing(workdir.relative));
      }

      const denial = await checkApproval(command, ctx, workdir.absolute, signal);
      if (denial) return denial;
      if (signal.aborted) return abortedBeforeStart();

      // An elevated run's commands leave its sandbox for the host (tools.elevated, /elevated).
      const sandbox = ctx.elevated ? undefined : ctx.sandbox;
      // A skill's variables are for commands on this host, as in OpenClaw: a sandbox never gets them.
      const env = sandbox ? buildExecEnv() : { ...buildExecEnv(), ...ctx.services.skillEnv };
      const sandboxed = sandbox?.launch(workdir.absolute, definedOnly(env));
      // A sandboxed run never falls back to the host.
      if (sandboxed && !sandboxed.ok)
        return toolError("refused" in sandboxed ? TOOL_ERRORS.sandboxBindRefused(sandboxed.refused) : TOOL_ERRORS.sandboxBackendMissing(sandboxed.backend, sandboxed.hint));

      const registry = ctx.services.processes;
      // Without a registry nobody could follow a background process, so everything runs in front.
      const background = args.background === true && registry !== undefined;
      const session = new ProcessSession({
        command,
        cwd: workdir.absolute,
        env,
        ...(sandboxed ? { launch: sandboxed.launch, onKill: sandboxed.cleanup } : {}),
        timeoutMs: resolveTimeoutSeconds(args.timeoutSeconds, background ? maxTimeoutSeconds : defaultTimeoutSeconds, maxTimeoutSeconds) * 1000,
        maxOutputChars,
        agentId: ctx.agentId,
        sessionKey: ctx.sessionKey,
        ...(options.completion ? { completion: options.completion } : {}),
      });

      sandbox?.track(session);
      if (background) {
        registry.adopt(session);
        return runningResult(session, false);
      }

      const yieldMs = registry ? clampYieldMs(args.yieldMs, defaultYieldMs) : Number.POSITIVE_INFINITY;
      const outcome = await waitForSession(session, yieldMs, signal);
      if (outcome === "aborted") {
        session.kill("killed");
        await Promise.race([session.finished, delay(ABORT_SETTLE_MS)]);
        return finishedResult(session, workdir.relative, "aborted", ctx.elevated);
      }
      if (outcome === "yielded" && registry) {
        registry.adopt(session);
        return runningResult(session, true);
      }
      return finishedResult(session, workdir.relative, "finished", ctx.elevated);
    },
  };
}

async function checkApproval(command: string, ctx: ToolContext, cwd: string, signal: AbortSignal): Promise<ToolResult | undefined> {
  const gate = ctx.services.execApprovals;
  if (!gate) return undefined;
  let decision: ExecApprovalDecision | "aborted" | undefined;
  let onAbort: (() => void) | undefined;
  try {
    // A human may take minutes to answer; stopping the run must not wait for them.
    const aborted = new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
    });
    decision = await Promise.race([gate.check(command, { agentId: ctx.agentId, sessionKey: ctx.sessionKey, cwd }), aborted]);
  } catch (error) {
    // Fail closed: a broken approval service must not turn into "everything allowed".
    decision = { allowed: false, reason: `The approval check failed: ${(error as Error)?.message ?? String(error)}` };
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
  if (decision === "aborted") return abortedBeforeStart();
  if (decision?.allowed === true) return undefined;
  const reason = decision && typeof decision.reason === "string" && decision.reason !== "" ? decision.reason : "The command was not approved.";
  return toolError(TOOL_ERRORS.execDenied(reason));
}

function waitForSession(session: ProcessSession, yieldMs: number, signal: AbortSignal): Promise<"finished" | "yielded" | "aborted"> {
  return new Promise((resolve) => {
    const timer = Number.isFinite(yieldMs) ? setTimeout(() => settle("yielded"), yieldMs) : undefined;
    const onAbort = (): void => settle("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) settle("aborted");
    void session.finished.then(() => settle("finished"));
    function settle(outcome: "finished" | "yielded" | "aborted"): void {
      if (timer) clearTimeout(timer);
      // Once handed to the registry the process belongs to it, not to this run's abort signal.
      signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    }
  });
}

function finishedResult(session: ProcessSession, relativeCwd: string, how: "finished" | "aborted", elevated: ToolContext["elevated"]): ToolResult {
  const output = session.output.text();
  const seconds = `${(session.durationMs / 1000).toFixed(1)} s`;
  let footer: string;
  let isError = true;
  if (how === "aborted") {
    footer = `[aborted after ${seconds}: the run was stopped and the process group killed]`;
  } else if (session.status === "timed_out") {
    footer = `[timed out after ${seconds}: the process group was killed. Use a larger timeoutSeconds, or background:true and the process tool for long-running commands]`;
  } else if (session.status === "failed") {
    footer = "[the command could not be started]";
  } else if (session.exitSignal) {
    footer = `[ended by signal ${session.exitSignal} after ${seconds}]`;
  } else {
    footer = `[exit code ${session.exitCode} · ${seconds}]`;
    isError = session.exitCode !== 0;
  }
  const where = elevated ? "\n[elevated: ran on the host, outside the sandbox]" : "";
  const text = `${output.length > 0 ? output : "(no output)"}\n\n${footer}${where}`;
  const details = {
    status: how === "aborted" ? "aborted" : session.status,
    exitCode: session.exitCode,
    signal: session.exitSignal,
    durationMs: session.durationMs,
    timedOut: session.status === "timed_out",
    cwd: relativeCwd,
    outputChars: session.output.totalChars,
    truncatedChars: session.output.droppedChars,
    ...(elevated ? { elevated } : {}),
  };
  return { ...toolText(text, details), ...(isError ? { isError: true } : {}) };
}

function runningResult(session: ProcessSession, yielded: boolean): ToolResult {
  const handle = { status: "running" as const, sessionId: session.id, pid: session.pid };
  const lines = [
    JSON.stringify(handle),
    `${yielded ? `Still running after ${(session.durationMs / 1000).toFixed(1)} s; it continues in the background.` : "Started in the background."} ` +
      `Use the process tool with sessionId "${session.id}": "poll" for new output and status, "log" for the output, "kill" to stop it.`,
  ];
  const soFar = session.output.text();
  if (soFar.length > 0) {
    const preview = soFar.length > RUNNING_OUTPUT_PREVIEW_CHARS ? `…${soFar.slice(-RUNNING_OUTPUT_PREVIEW_CHARS)}` : soFar;
    lines.push("Output so far:", preview);
  }
  // What the model saw here is not repeated by the next poll.
  session.markOutputSeen();
  return toolText(lines.join("\n"), handle);
}

function abortedBeforeStart(): ToolResult {
  return toolError(TOOL_ERRORS.execAbortedBeforeStart());
}

function resolveTimeoutSeconds(requested: number | undefined, fallback: number, max: number): number {
  if (typeof requested !== "number" || !Number.isFinite(requested)) return fallback;
  // OpenClaw reads 0 as "no timeout"; here every command has one, so 0 means the longest allowed.
  if (requested <= 0) return max;
  return Math.min(requested, max);
}

function clampYieldMs(requested: number | undefined, fallback: number): number {
  if (typeof requested !== "number" || !Number.isFinite(requested) || requested < 0) return fallback;
  return requested;
}

function isDirectory(absolute: string): boolean {
  try {
    return fs.statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
