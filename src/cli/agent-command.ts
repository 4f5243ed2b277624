import { randomUUID } from "node:crypto";
import { loadConfig, resolveStateDir } from "../config/index.js";
import type { AgentFinalPayload } from "../gateway/methods/agent-final-payload.js";
import { AgentRunPrinter, agentJsonOutput, type AgentEventPayload } from "./agent-output.js";
import { connectClient } from "./client-context.js";
import { CliError, parseTimeoutSeconds, printJson } from "./output.js";

export interface AgentFlags {
  message?: string;
  agent?: string;
  sessionKey?: string;
  local?: boolean;
  url?: string;
  port?: string;
  token?: string;
  password?: string;
  json?: boolean;
  timeout?: string;
}

/**
 * `openclaw agent -m TEXT`: one turn, through the running gateway or (`--local`) in this process
 * on the same sessions. On a terminal the answer streams with a line per tool call; `--json`
 * prints one final object of the same shape for both paths. Exit 0 when the turn completed, 1
 * otherwise.
 */
export async function agentCommand(flags: AgentFlags): Promise<void> {
  if (!flags.message?.trim()) throw new CliError("--message is required");
  const timeoutSeconds = parseTimeoutSeconds(flags.timeout, 600, { allowZero: true }) / 1000;
  const printer = new AgentRunPrinter(flags.json ? { write: () => true } : process.stdout);
  const final = flags.local ? await agentLocal(flags, timeoutSeconds, printer) : await agentViaGateway(flags, timeoutSeconds, printer);
  if (flags.json) printJson(agentJsonOutput(final));
  else printer.finish(final, process.stderr);
  if (final.status !== "ok") process.exitCode = 1;
}

async function agentLocal(flags: AgentFlags, timeoutSeconds: number, printer: AgentRunPrinter): Promise<AgentFinalPayload> {
  const stateDir = resolveStateDir(process.env);
  const { config } = loadConfig({ stateDir, env: process.env });
  const controller = new AbortController();
  const timer = timeoutSeconds > 0 ? setTimeout(() => controller.abort(new Error("timeout")), timeoutSeconds * 1000) : undefined;
  const onSignal = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const { runLocalTurn } = await import("./agent-local-run.js");
  try {
    return await runLocalTurn({
      config,
      stateDir,
      message: flags.message!,
      agentId: flags.agent,
      sessionKey: flags.sessionKey,
      signal: controller.signal,
      onEvent: (payload) => printer.onEvent(payload),
    });
  } finally {
    clearTimeout(timer);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * The turn through the running gateway's `agent` method: an `accepted` response, then the
 * result; its `agent` events stream in between. Ctrl-C sends `chat.abort` for the accepted run
 * before exiting 130.
 */
async function agentViaGateway(flags: AgentFlags, timeoutSeconds: number, printer: AgentRunPrinter): Promise<AgentFinalPayload> {
  const client = await connectClient(
    { url: flags.url, port: flags.port, token: flags.token, password: flags.password, caps: printer.live ? ["tool-events"] : [] },
    "or run the turn in this process with `openclaw agent --local`",
  );
  const idempotencyKey = randomUUID();
  let sessionKey = flags.sessionKey;
  const onSignal = (code: number) => {
    void client
      .call("chat.abort", { sessionKey: sessionKey ?? "main", runId: idempotencyKey }, { timeoutMs: 2_000 })
      .catch(() => {})
      .finally(() => process.exit(code));
  };
  process.once("SIGINT", () => onSignal(130));
  process.once("SIGTERM", () => onSignal(143));
  client.onEvent((event, payload) => {
    if (event === "agent" && (payload as AgentEventPayload).runId === idempotencyKey) printer.onEvent(payload as AgentEventPayload);
  });
  try {
    const final = (await client.call(
      "agent",
      { message: flags.message, idempotencyKey, ...(flags.agent ? { agentId: flags.agent } : {}), ...(sessionKey ? { sessionKey } : {}) },
      { expectFinal: true, timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : 2 ** 31 - 1 },
    )) as AgentFinalPayload;
    sessionKey = (final.result?.meta?.agentMeta as { sessionKey?: string } | undefined)?.sessionKey ?? sessionKey;
    return { ...final, result: { payloads: final.result?.payloads ?? [], meta: final.result?.meta ?? {} } };
  } finally {
    client.close();
  }
}
