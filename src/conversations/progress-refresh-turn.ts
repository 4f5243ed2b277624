import { runEmbeddedTurn } from "../agents/embedded-turn.js";
import type { ToolServices } from "../agents/types.js";
import type { ProgressCard } from "../sessions/progress-card/index.js";
import type { RunTracer } from "../traces/index.js";
import { noReplyError } from "./run-endings.js";
import type { HiddenTurnInput } from "./hidden-turn-input.js";
import { sessionTurnSettings } from "./session-turn-settings.js";

/** How a refresh taken by a running turn is named in the transcript's provenance. */
export const PROGRESS_REFRESH_SOURCE = { method: "progressCard.refresh", sourceTool: "progress_card_refresh" } as const;

/** The tools a refresh may use: the card itself and tools that only read the session's context. */
export const PROGRESS_REFRESH_TOOLS = [
  "progress_card",
  "read",
  "memory_search",
  "memory_get",
  "session_status",
  "sessions_history",
  "sessions_list",
  "sessions_search",
  "get_goal",
];

/** A status check is short; a refresh still going after this is cut off (the card keeps what it had). */
export const PROGRESS_REFRESH_TIMEOUT_SECONDS = 120;

export interface ProgressRefreshTurnInput extends HiddenTurnInput {
  tracer?: RunTracer;
  runId: string;
  signal: AbortSignal;
}

/**
 * `progressCard.refresh`: a status-only turn in which the agent brings the session's progress card
 * up to date with the conversation, using only PROGRESS_REFRESH_TOOLS. It is hidden from chat: the
 * request and whatever the agent answers are written to no transcript and reach no chat or client
 * event; only the card it writes (a `progressCard.changed`) and the run's trace show it. It may
 * not resume stopped work or change the goal: it has no tool that could.
 */
export async function runProgressRefreshTurn(input: ProgressRefreshTurnInput, card: ProgressCard): Promise<void> {
  const message = refreshRequest(card);
  const services: ToolServices = { ...input.services, channelMessenger: undefined, questions: undefined };
  const trace = input.tracer?.begin({ runId: input.runId, sessionKey: input.sessionKey, agentId: input.agentId, source: "internal", input: message });
  const result = await runEmbeddedTurn({
    config: input.config,
    stateDir: input.stateDir,
    env: process.env,
    message,
    agentId: input.agentId,
    runId: input.runId,
    senderIsOwner: true,
    sessionKey: input.sessionKey,
    ...sessionTurnSettings(input.store.peek(input.sessionKey)),
    ...input.overrides,
    runToolAllow: { source: "progressCard.refresh", entries: PROGRESS_REFRESH_TOOLS },
    timeoutSeconds: PROGRESS_REFRESH_TIMEOUT_SECONDS,
    signal: input.signal,
    services,
    streamModel: input.streamModel,
    failover: input.failover,
    history: input.history,
    emit: (event) => trace?.event(event),
  }).catch((err: Error) => noReplyError(input.runId, err.message));
  const ok = result.stopReason === "stop" || result.stopReason === "length";
  trace?.end({ result, outcome: ok ? "ok" : result.stopReason === "timeout" || result.stopReason === "aborted" ? result.stopReason : "error" });
  if (ok) input.logger.info({ sessionKey: input.sessionKey, runId: input.runId }, "progress card refresh turn ended");
  else input.logger.warn({ sessionKey: input.sessionKey, runId: input.runId, err: result.error?.message }, "progress card refresh turn failed; the card keeps what it had");
}

/** The control request the agent answers: the card as it stands and what to do with it. */
export function refreshRequest(card: ProgressCard): string {
  const plan = card.steps?.map((s, i) => `${i + 1}. [${s.status}] ${s.step}`).join("\n");
  const shown = [plan ? `Plan:\n${plan}` : undefined, card.markdown ? `Note:\n${card.markdown}` : undefined].filter(Boolean).join("\n\n");
  return [
    "[Progress card refresh] The operator asked you to bring this session's progress card up to date with the current state of the work.",
    `The card now (revision ${card.revision}):\n${shown}`,
    "Compare it with the conversation and, if you need to, check with your read-only tools. Then call progress_card once with the whole corrected card " +
      "(send it unchanged if it is already right). This is a status check only: do not resume stopped work, start new work or change the goal. " +
      "Nobody sees your text answer; keep it to one line.",
  ].join("\n\n");
}
