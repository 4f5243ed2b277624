import type { StreamModelFn } from "../types.js";
import type { OpenClawConfig } from "../../config/index.js";
import { AuthProfileStore, authProfilesPath } from "./auth-profile-store.js";
import type { CandidateChain } from "./candidate-chain.js";
import { REASON_TEXT } from "./failure-reason.js";
import { FailoverTurn, type FailoverTurnDeps, type OverloadRetry } from "./failover-turn.js";
import { LRUCache } from "lru-cache";

export interface ModelFailoverOptions {
  stateDir: string;
  log?: { debug(fields: Record<string, unknown>, message: string): void; warn(fields: Record<string, unknown>, message: string): void };
  overload?: OverloadRetry;
}

export interface TurnStart {
  chain: CandidateChain;
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  agentId: string;
  sessionKey?: string;
  stream: StreamModelFn;
  thinking?: string;
  onAttempt?: FailoverTurnDeps["onAttempt"];
  /** The turn's agent's own `params` and `models.<ref>.params` (its entry under agents). */
  agentParams?: FailoverTurnDeps["agentParams"];
  /** The turn's own params (an HTTP API request's sampling fields), over every configured layer. */
  turnParams?: Record<string, unknown>;
}

/** How a turn's model calls went, for the session row and the user. */
export interface TurnModelOutcome {
  /** The model that answered last (the selected one when none answered). */
  modelRef: string;
  /** `↪️ Model Fallback: …` or `… cleared`, once per change of the session's state; DMs show it. */
  notice?: string;
}

const MAX_SESSIONS = 4_096;

/**
 * The process's failover state: each agent's auth-profile store, each session's pinned keys,
 * and which sessions are currently on a fallback (so the user hears of a change once).
 */
export class ModelFailover {
  private readonly stores = new Map<string, AuthProfileStore>();
  private readonly pins = new LRUCache<string, Map<string, string>>({ max: MAX_SESSIONS });
  private readonly onFallback = new LRUCache<string, string>({ max: MAX_SESSIONS });

  constructor(private readonly options: ModelFailoverOptions) {}

  store(agentId: string): AuthProfileStore {
    let store = this.stores.get(agentId);
    if (!store) {
      store = new AuthProfileStore(authProfilesPath(this.options.stateDir, agentId));
      this.stores.set(agentId, store);
    }
    return store;
  }

  beginTurn(start: TurnStart): FailoverTurn {
    const log = this.options.log;
    return new FailoverTurn({
      chain: start.chain,
      config: start.config,
      env: start.env,
      store: this.store(start.agentId),
      stream: start.stream,
      ...(start.thinking ? { thinking: start.thinking } : {}),
      ...(start.sessionKey ? { pins: this.pinsOf(start.sessionKey) } : {}),
      ...(log
        ? {
            log: (fields, message) => log.warn({ sessionKey: start.sessionKey, ...fields }, message),
            debug: (fields, message) => log.debug({ sessionKey: start.sessionKey, ...fields }, message),
          }
        : {}),
      ...(this.options.overload ? { overload: this.options.overload } : {}),
      ...(start.onAttempt ? { onAttempt: start.onAttempt } : {}),
      ...(start.agentParams ? { agentParams: start.agentParams } : {}),
      ...(start.turnParams ? { turnParams: start.turnParams } : {}),
    });
  }

  /** Ends a turn: which model answered and the notice, if the session's fallback state changed. */
  endTurn(turn: FailoverTurn, chain: CandidateChain, sessionKey: string | undefined): TurnModelOutcome {
    const modelRef = turn.answeredBy ?? chain.selected;
    if (!sessionKey || !turn.answeredBy) return { modelRef };
    const previous = this.onFallback.get(sessionKey);
    if (turn.answeredBy !== chain.selected) {
      if (previous === turn.answeredBy) return { modelRef };
      this.remember(sessionKey, turn.answeredBy);
      const why = turn.fallbackReason ? REASON_TEXT[turn.fallbackReason] : "unavailable";
      return { modelRef, notice: `↪️ Model Fallback: ${turn.answeredBy} (selected ${chain.selected}; ${why})` };
    }
    if (previous === undefined) return { modelRef };
    this.onFallback.delete(sessionKey);
    return { modelRef, notice: `↪️ Model Fallback cleared: ${chain.selected} answers again` };
  }

  private pinsOf(sessionKey: string): { get(provider: string): string | undefined; set(provider: string, profileId: string): void } {
    return {
      get: (provider) => this.pins.get(sessionKey)?.get(provider),
      set: (provider, profileId) => {
        let byProvider = this.pins.get(sessionKey);
        if (!byProvider) {
          byProvider = new Map();
          this.pins.set(sessionKey, byProvider);
        }
        byProvider.set(provider, profileId);
      },
    };
  }

  private remember(sessionKey: string, ref: string): void {
    this.onFallback.set(sessionKey, ref);
  }
}

const shared = new Map<string, ModelFailover>();

/** The process's ModelFailover for a state dir, for callers that were not handed one (the local CLI turn). */
export function sharedModelFailover(stateDir: string): ModelFailover {
  let failover = shared.get(stateDir);
  if (!failover) {
    failover = new ModelFailover({ stateDir });
    shared.set(stateDir, failover);
  }
  return failover;
}
