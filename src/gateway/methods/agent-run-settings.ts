import type { SubmitInput } from "../../agents/conversation-port.js";
import type { PromptMode } from "../../agents/context/system-prompt.js";
import { invalidRequest } from "../protocol/errors.js";
import { thinkingLevelOf } from "./chat-send-options.js";

/** The `agent` fields that shape its run, as a client sends them. */
export interface AgentRunFields {
  thinking?: string;
  timeout?: number;
  model?: string;
  provider?: string;
  promptMode?: PromptMode;
  bootstrapContextMode?: "full" | "lightweight";
}

const SESSION_MODEL = "the run uses the session's model; change it with sessions.patch {model} or /model, then send";

/** Fields with no feature behind them in `agent`, and what to do instead: a request carrying one is refused, never half-done. */
const UNSUPPORTED: readonly [keyof AgentRunFields, (value: unknown) => boolean, string][] = [
  ["model", (v) => v !== undefined, SESSION_MODEL],
  ["provider", (v) => v !== undefined, SESSION_MODEL],
];

/**
 * `agent`'s run settings (docs/protocol.md, "agent"): `thinking` sets this run's thinking level
 * and `timeout` (seconds, 0 for none) bounds it, as in chat.send; `promptMode` (full, minimal, none)
 * is how much of the system prompt the turn gets, and `bootstrapContextMode: "lightweight"` leaves the
 * workspace bootstrap files out of it, as a scheduled job's `lightContext` does; `model` and `provider` are refused
 * before anything runs (`deliver` is the method's own: see deliveryChat).
 */
export function readAgentRunSettings(params: AgentRunFields): NonNullable<SubmitInput["turnSettings"]> {
  for (const [field, used, instead] of UNSUPPORTED) {
    if (used(params[field])) throw invalidRequest(`not supported: ${field} (${instead})`);
  }
  return {
    ...(params.thinking !== undefined ? { thinkingLevel: thinkingLevelOf(params.thinking) } : {}),
    ...(params.timeout ? { timeoutSeconds: params.timeout } : {}),
    ...(params.promptMode !== undefined ? { promptMode: params.promptMode } : {}),
    ...(params.bootstrapContextMode === "lightweight" ? { lightContext: true } : {}),
  };
}
