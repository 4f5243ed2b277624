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
  internalEvents?: unknown;
  suppressPromptPersistence?: boolean;
  sessionEffects?: "visible" | "internal";
  sourceReplyDeliveryMode?: "automatic" | "message_tool_only";
  disableMessageTool?: boolean;
  voiceWakeTrigger?: string;
  modelRun?: unknown;
  cleanupBundleMcpOnRunEnd?: boolean;
}

const SESSION_MODEL = "the run uses the session's model; change it with sessions.patch {model} or /model, then send";

const present = (v: unknown) => v !== undefined;
const isTrue = (v: unknown) => v === true;

/**
 * Fields with no feature behind them in `agent`, when set to anything but what every run here
 * already does, and what to do instead: a request carrying one is refused, never half-done.
 */
const UNSUPPORTED: readonly [keyof AgentRunFields, (value: unknown) => boolean, string][] = [
  ["model", present, SESSION_MODEL],
  ["provider", present, SESSION_MODEL],
  ["internalEvents", present, "the gateway records internal events itself on the sub-agent and cron results it reports into a session"],
  ["suppressPromptPersistence", isTrue, "every message a turn answers is kept in the session's transcript"],
  ["sessionEffects", (v) => v !== undefined && v !== "visible", "every turn's effects on its session are visible"],
  ["sourceReplyDeliveryMode", (v) => v !== undefined && v !== "automatic", "the reply is the run's final answer; the message tool sends only what the agent chooses to add"],
  ["voiceWakeTrigger", present, "this gateway has no voice wake"],
  ["modelRun", present, "a run uses the session's model and the agent's fallbacks; change the model with sessions.patch {model} or /model"],
  ["cleanupBundleMcpOnRunEnd", isTrue, "this gateway starts no bundle MCP servers for a run"],
];

/**
 * `agent`'s run settings (docs/protocol.md, "agent"): `thinking` sets this run's thinking level
 * and `timeout` (seconds, 0 for none) bounds it, as in chat.send; `promptMode` (full, minimal, none)
 * is how much of the system prompt the turn gets, and `bootstrapContextMode: "lightweight"` leaves the
 * workspace bootstrap files out of it, as a scheduled job's `lightContext` does; `disableMessageTool`
 * takes the message tool from this run; `model`, `provider` and
 * the UNSUPPORTED fields are refused before anything runs (`deliver` is the method's own: see agentDelivery).
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
    ...(params.disableMessageTool ? { runToolDeny: { source: "agent disableMessageTool", entries: ["message"] } } : {}),
  };
}
