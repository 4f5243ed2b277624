import { McpHub } from "../agents/mcp/mcp-hub.js";
import { randomUUID } from "node:crypto";
import pino from "pino";
import type { OpenClawConfig } from "../config/index.js";
import { createToolServices } from "../agents/tools/index.js";
import { ConversationService } from "../conversations/conversation-service.js";
import { agentFinalPayload, type AgentFinalPayload } from "../gateway/methods/agent-final-payload.js";
import { readLiveLock } from "../gateway/state-lock.js";
import { IdempotencyLedger } from "../sessions/idempotency/index.js";
import { SessionStore } from "../sessions/store/index.js";
import type { AgentEventPayload } from "./agent-output.js";
import { CliError } from "./output.js";

export interface LocalTurnInput {
  config: OpenClawConfig;
  stateDir: string;
  message: string;
  agentId?: string;
  sessionKey?: string;
  signal: AbortSignal;
  onEvent(payload: AgentEventPayload): void;
}

/**
 * `openclaw agent --local`: the turn runs in this process through the same conversation core as
 * the gateway's `agent` method, on the same session files: `--session-key` (default: the agent's
 * main session) continues the same history, and the turn is saved to it. A running gateway owns
 * the state dir's sessions, so with one running the turn must go through it.
 */
export async function runLocalTurn(input: LocalTurnInput): Promise<AgentFinalPayload> {
  const running = readLiveLock(input.stateDir);
  if (running) {
    throw new CliError(`a gateway (pid ${running.pid}, port ${running.port}) owns the sessions in ${input.stateDir}; run the turn through it: drop --local`);
  }
  // A failed model attempt is in the turn's own error message; only errors are worth a log line,
  // and they go to stderr, never into the answer.
  const logger = pino({ level: "error", base: undefined }, pino.destination({ dest: 2, sync: true }));
  const store = new SessionStore(input.stateDir, { onWarning: (warning) => logger.warn(warning) });
  const ledger = new IdempotencyLedger(input.stateDir);
  const mcp = new McpHub(logger);
  const services = createToolServices({ mcp });
  const conversations = new ConversationService({
    stateDir: input.stateDir,
    config: () => input.config,
    store,
    ledger,
    logger,
    services,
    sink: { agent: (payload) => input.onEvent(payload), chat: () => {} },
    onSessionChanged: () => {},
  });
  try {
    const outcome = await conversations.submit({
      message: input.message,
      idempotencyKey: randomUUID(),
      sessionKey: input.sessionKey,
      agentId: input.agentId,
      method: "agent",
    });
    if (outcome.kind !== "accepted") throw new CliError(outcome.kind === "rejected" ? outcome.notice : `run ${outcome.runId} was already sent`);
    const onAbort = () => conversations.abort(outcome.run.sessionKey, outcome.run.runId);
    // The timeout may have passed while the message was being accepted.
    if (input.signal.aborted) onAbort();
    else input.signal.addEventListener("abort", onAbort, { once: true });
    const run = await outcome.run.done;
    input.signal.removeEventListener("abort", onAbort);
    return agentFinalPayload(run);
  } finally {
    await conversations.drain();
    // Background processes cannot be polled once this process is gone.
    services.processes?.killAll();
    await mcp.close();
    store.close();
    ledger.close();
  }
}
