import { loadConfig, resolveStateDir } from "../config/index.js";
import { runEmbeddedTurn } from "../agents/embedded-turn.js";
import { createToolServices } from "../agents/tools/index.js";
import { randomUUID } from "node:crypto";
import { connectClient } from "./client-context.js";
import { CliError, printJson } from "./output.js";

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
 * `openclaw agent --local -m TEXT`: one embedded turn in this process (same config and
 * workspace as the gateway), the reply printed. Exit 0 when the turn completed, 1 otherwise.
 */
export async function agentCommand(flags: AgentFlags): Promise<void> {
  if (!flags.message?.trim()) throw new CliError("--message is required");
  if (!flags.local) return agentViaGateway(flags);
  const env = process.env;
  const stateDir = resolveStateDir(env);
  const { config } = loadConfig({ stateDir, env });
  const controller = new AbortController();
  const timeoutSeconds = flags.timeout === undefined ? 600 : Number(flags.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) throw new CliError("--timeout: expected seconds (0 = none)");
  const timer = timeoutSeconds > 0 ? setTimeout(() => controller.abort(new Error("timeout")), timeoutSeconds * 1000) : undefined;
  const onSignal = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const services = createToolServices();
  try {
    const result = await runEmbeddedTurn({
      config,
      stateDir,
      env,
      message: flags.message,
      agentId: flags.agent,
      senderIsOwner: true,
      signal: controller.signal,
      services,
    });
    const meta = {
      agentId: result.agentId,
      model: result.model,
      durationMs: result.durationMs,
      stopReason: result.stopReason,
      usage: result.usage,
      ...(result.error ? { error: result.error } : {}),
    };
    if (flags.json) printJson({ payloads: result.payloads.map((p) => ({ text: p.text, mediaUrl: null })), meta });
    else {
      for (const payload of result.payloads) process.stdout.write(`${payload.text}\n`);
      // A turn that failed before the model ran already carries its message as the reply.
      if (result.error && !result.payloads.some((p) => p.text === result.error!.message)) {
        process.stderr.write(`openclaw: run ended (${result.stopReason}): ${result.error.message}\n`);
      }
    }
    if (result.stopReason !== "stop" && result.stopReason !== "length") process.exitCode = 1;
  } finally {
    clearTimeout(timer);
    // Background processes cannot be polled once this process is gone.
    services.processes?.killAll();
  }
}

/**
 * The turn through the running gateway's `agent` method: an `accepted` response, then the
 * result. Ctrl-C sends `chat.abort` for the accepted run before exiting 130.
 */
async function agentViaGateway(flags: AgentFlags): Promise<void> {
  const timeoutSeconds = flags.timeout === undefined ? 600 : Number(flags.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) throw new CliError("--timeout: expected seconds (0 = none)");
  const client = await connectClient({ url: flags.url, port: flags.port, token: flags.token, password: flags.password }, "or run the turn in this process with `openclaw agent --local`");
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
  try {
    const final = (await client.call(
      "agent",
      { message: flags.message, idempotencyKey, ...(flags.agent ? { agentId: flags.agent } : {}), ...(sessionKey ? { sessionKey } : {}) },
      { expectFinal: true, timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : 2 ** 31 - 1 },
    )) as { status: string; summary?: string; result?: { payloads?: { text: string }[]; meta?: Record<string, any> } };
    sessionKey = final.result?.meta?.agentMeta?.sessionKey ?? sessionKey;
    const payloads = final.result?.payloads ?? [];
    if (flags.json) printJson({ payloads: payloads.map((p) => ({ text: p.text, mediaUrl: null })), meta: final.result?.meta ?? {}, status: final.status });
    else {
      for (const p of payloads) process.stdout.write(`${p.text}\n`);
      if (final.status !== "ok") process.stderr.write(`openclaw: run ended (${final.status}): ${final.summary ?? ""}\n`);
    }
    if (final.status !== "ok") process.exitCode = 1;
  } finally {
    client.close();
  }
}
