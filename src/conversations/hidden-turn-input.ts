import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { ModelFailover } from "../models/failover/index.js";
import type { TurnOverrides } from "../agents/embedded-turn.js";
import type { HistoryMessage, StreamModelFn, ToolServices } from "../agents/types.js";
import type { SessionStore } from "../sessions/store/index.js";

/**
 * What a hidden turn of a session needs (the memory flush, a progress card refresh): a turn that
 * writes nothing to the transcript and reaches no chat, on the session's model and history.
 */
export interface HiddenTurnInput {
  config: OpenClawConfig;
  stateDir: string;
  store: SessionStore;
  logger: Logger;
  streamModel: StreamModelFn;
  /** The turns' keys and cooldowns: a key the hidden turn finds rate-limited rests for the turns too. */
  failover: ModelFailover;
  services?: ToolServices;
  sessionKey: string;
  agentId: string;
  overrides?: TurnOverrides;
  history: (tokenBudget: number) => readonly HistoryMessage[];
}
