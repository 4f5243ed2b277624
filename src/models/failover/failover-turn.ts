import type { ModelRequest, ModelStreamEvent, StreamModelFn } from "../types.js";
import type { OpenClawConfig } from "../../config/index.js";
import { sleep } from "../../infra/sleep.js";
import { AssistantTurn } from "../assistant-turn.js";
import { resolveModel } from "../resolve-model.js";
import { apiKeyEnvVar } from "../builtin-providers.js";
import { unsetApiKeyVariable } from "../configured-api-key.js";
import type { ProviderModel } from "../types.js";
import { wireSettings } from "../model-settings.js";
import { streamAttempt } from "./attempt.js";
import { cooldownSettings, type AuthProfileStore } from "./auth-profile-store.js";
import type { AuthProfile } from "./profile-sources.js";
import type { CandidateChain } from "./candidate-chain.js";
import { coolsKey, failoverReason, nextStep, REASON_TEXT, type FailoverReason } from "./failure-reason.js";

type ErrorEvent = Extract<ModelStreamEvent, { type: "error" }>;

/** One try of one key on one model, for logs, `FailoverError` text and tests. */
export interface AttemptRecord {
  ref: string;
  profileId?: string;
  reason: FailoverReason | "cooldown";
  message: string;
}

export interface FailoverTurnDeps {
  chain: CandidateChain;
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  store: AuthProfileStore;
  /** The session's pinned key per provider (keeps provider caches warm); absent outside sessions. */
  pins?: { get(provider: string): string | undefined; set(provider: string, profileId: string): void };
  stream: StreamModelFn;
  /** The turn's thinking level; each candidate maps it to its API or drops it (logged at debug). */
  thinking?: string;
  log?: (fields: Record<string, unknown>, message: string) => void;
  debug?: (fields: Record<string, unknown>, message: string) => void;
  overload?: OverloadRetry;
  /** Told of every attempt as it ends: the failed ones and the one that answered (run traces). */
  onAttempt?: (attempt: AttemptReport) => void;
  /** The turn's agent's `params` and `models.<ref>.params`: the most specific layers of a model's params. */
  agentParams?: { params?: Record<string, unknown>; models?: Record<string, { params?: Record<string, unknown> }> };
  /** This turn's own params, the last layer: an HTTP API request's sampling fields (`max_tokens` capped at each model's). */
  turnParams?: Record<string, unknown>;
}

/** One attempt as observers see it: which model and key, and whether it answered. */
export type AttemptReport = { ok: true; ref: string; profileId: string } | ({ ok: false } & AttemptRecord);

/** When every candidate was only overloaded, the whole chain is tried again after a pause. */
export interface OverloadRetry {
  retries: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_OVERLOAD_RETRY: OverloadRetry = { retries: 10, firstDelayMs: 2_500, maxDelayMs: 30_000 };

/**
 * The model calls of one turn, with failover (docs/models.md): each call tries the chain's
 * models in order and, inside a model's provider, its keys; the first that answers serves this
 * call and the rest of the turn. Nothing of a failed attempt reaches the loop; once output has
 * started, a failure is the loop's to report (a second answer would duplicate the first).
 */
export class FailoverTurn {
  readonly attempts: AttemptRecord[] = [];
  private winnerIndex = 0;
  /** The model that answered the latest call. */
  answeredBy: string | undefined;
  /** Why the turn is not on its selected model (the first failure of the selected one). */
  fallbackReason: FailoverReason | undefined;

  constructor(private readonly deps: FailoverTurnDeps) {}

  readonly stream: StreamModelFn = (request, signal) => this.run(request, signal);

  private async *run(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const overload = this.deps.overload ?? DEFAULT_OVERLOAD_RETRY;
    for (let round = 0; ; round += 1) {
      const roundStart = this.attempts.length;
      const outcome = yield* this.walkChain(request, signal);
      // Terminal events go last: the consumer stops reading at them.
      if (outcome.kind === "answered") {
        yield outcome.done;
        return;
      }
      if (outcome.kind === "final") {
        yield outcome.error;
        return;
      }
      const tried = this.attempts.slice(roundStart);
      const onlyOverloaded = tried.length > 0 && tried.every((a) => a.reason === "overloaded");
      if (onlyOverloaded && round < overload.retries && !signal.aborted) {
        const delayMs = Math.min(overload.firstDelayMs * 2 ** round, overload.maxDelayMs);
        this.deps.log?.({ round: round + 1, delayMs }, "every model is overloaded; trying the chain again");
        await sleep(delayMs, signal);
        this.winnerIndex = 0;
        continue;
      }
      yield this.exhausted(request, outcome.last, tried);
      return;
    }
  }

  /** One pass over the chain from the current winner. */
  private async *walkChain(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, ChainOutcome> {
    const { chain, config, env, store } = this.deps;
    let last: ErrorEvent | undefined;
    for (let i = this.winnerIndex; i < chain.refs.length; i += 1) {
      const ref = chain.refs[i]!;
      const lastCandidate = i === chain.refs.length - 1;
      const resolved = resolveModel(ref, config, env, { requireKey: false });
      if (!resolved.ok) {
        this.record({ ref, reason: "config", message: resolved.message });
        continue;
      }
      const model = resolved.model;
      const choice = store.choose(model.provider, model.id, config, env, this.deps.pins?.get(model.provider));
      // A server that takes requests without a key (a local Ollama) is not sent one from the
      // environment: OLLAMA_API_KEY there is Ollama Cloud's. Keys written for it are.
      let keys = model.keyOptional ? choice.usable.filter(writtenForServer) : choice.usable;
      if (keys.length === 0) {
        const soonest = model.keyOptional ? choice.blocked.find((blocked) => writtenForServer(blocked.profile)) : choice.blocked[0];
        if (!soonest && model.keyOptional) {
          keys = [keylessProfile(model.provider)];
        } else if (!soonest) {
          this.record({ ref, reason: "config", message: store.orderExcludesAll(model.provider, config, env) ?? noKeyMessage(model, config) });
          continue;
        } else if (!lastCandidate || soonest.reason === "billing") {
          // Every key rests. The last candidate probes the one free soonest rather than give up unasked;
          // a billing-disabled key is never probed.
          this.record({ ref, reason: "cooldown", message: `every key is resting (${soonest.reason}) until ${new Date(soonest.until).toISOString()}` });
          continue;
        } else {
          keys = [soonest.profile];
        }
      }
      let extraRotations = 0;
      for (let k = 0; k < keys.length; k += 1) {
        const profile = keys[k]!;
        const lastOption = lastCandidate && k === keys.length - 1;
        const attemptModel: ProviderModel = {
          ...model,
          apiKey: profile.secret,
          authType: profile.type,
          // While another key or model can answer, a failure must come back at once.
          ...(lastOption ? {} : { sdkMaxRetries: 0 }),
        };
        const attemptRequest = this.requestFor(request, attemptModel);
        const outcome = yield* streamAttempt(this.deps.stream, attemptRequest, signal);
        if (outcome.kind === "done") {
          // A keyless attempt has no key to rest or to clear.
          if (profile.secret) store.recordSuccess(profile.id);
          this.deps.pins?.set(model.provider, profile.id);
          this.winnerIndex = i;
          this.answeredBy = model.ref;
          this.deps.onAttempt?.({ ok: true, ref: model.ref, profileId: profile.id });
          return { kind: "answered", done: outcome.event };
        }
        const reason = failoverReason({ kind: outcome.error.kind, message: outcome.error.error, status: outcome.error.status });
        this.record({ ref, profileId: profile.id, reason, message: outcome.error.error });
        if (coolsKey(reason) && profile.secret) store.recordFailure(profile.id, reason, model.id, cooldownSettings(config), outcome.error.retryAfterMs);
        if (outcome.kind === "failedAfterOutput" || nextStep(reason) === "stop" || signal.aborted) return { kind: "final", error: outcome.error };
        last = outcome.error;
        const step = nextStep(reason);
        if (step === "next-model") break;
        if (step === "one-more-key") {
          if (extraRotations >= 1) break;
          extraRotations += 1;
        }
      }
    }
    return { kind: "exhausted", last };
  }

  /** The request as this candidate gets it: its key, its max tokens, its params and the thinking level. */
  private requestFor(request: ModelRequest, model: ProviderModel): ModelRequest {
    const defaults = this.deps.config.agents.defaults;
    const { agentParams } = this.deps;
    const params = layeredParams(
      defaults.params,
      defaults.models?.[model.ref]?.params,
      model.params,
      agentParams?.models?.[model.ref]?.params,
      agentParams?.params,
      this.deps.turnParams && withinModelTokens(this.deps.turnParams, model.maxTokens),
    );
    const out: ModelRequest = {
      ...request,
      model,
      maxTokens: Math.min(request.maxTokens ?? model.maxTokens, model.maxTokens),
      ...(params ? { params } : {}),
      ...(this.deps.thinking ? { thinking: this.deps.thinking } : {}),
    };
    if ((params || this.deps.thinking) && this.deps.debug && !this.loggedDrops.has(model.ref)) {
      this.loggedDrops.add(model.ref);
      const { dropped } = wireSettings(out);
      if (dropped.length > 0) this.deps.debug({ model: model.ref, dropped }, "model settings not sent");
    }
    return out;
  }

  private readonly loggedDrops = new Set<string>();

  private record(attempt: AttemptRecord): void {
    this.attempts.push(attempt);
    this.deps.onAttempt?.({ ok: false, ...attempt });
    const fields = { model: attempt.ref, profile: attempt.profileId, reason: attempt.reason, error: attempt.message };
    // An abort or a context overflow is not a provider failure: the turn reports it, failover does nothing.
    if (attempt.reason === "aborted" || attempt.reason === "context_overflow") this.deps.debug?.(fields, "model attempt ended");
    else this.deps.log?.(fields, "model attempt failed");
    if (this.winnerIndex === 0 && this.fallbackReason === undefined && attempt.ref === this.deps.chain.refs[0] && attempt.reason !== "config") {
      this.fallbackReason = attempt.reason === "cooldown" ? "rate_limit" : attempt.reason;
    }
  }

  /** The error that ends the call when no candidate answered: one attempt's own, or a FailoverError listing all. */
  private exhausted(request: ModelRequest, last: ErrorEvent | undefined, tried: AttemptRecord[]): ErrorEvent {
    if (last && tried.length === 1) return last;
    const lines = tried.map((a) => `${a.ref}${a.profileId ? ` [${a.profileId}]` : ""}: ${a.reason === "cooldown" ? "skipped" : REASON_TEXT[a.reason]} — ${a.message}`);
    const text = tried.length === 0 ? "no model to try" : `All models failed (${tried.length} attempt${tried.length === 1 ? "" : "s"}): ${lines.join(" | ")}`;
    if (last) return { ...last, error: text, message: { ...last.message, errorMessage: text } };
    const event = new AssistantTurn(request.model).fail({ kind: "config", retryable: false, message: text });
    return event as ErrorEvent;
  }
}

type ChainOutcome = { kind: "answered"; done: ModelStreamEvent } | { kind: "final"; error: ErrorEvent } | { kind: "exhausted"; last: ErrorEvent | undefined };

/**
 * A model's params, each layer over the one before it key by key: `agents.defaults.params`,
 * `agents.defaults.models.<ref>.params`, the provider's model entry's, the agent's
 * `models.<ref>.params`, the agent's `params`. The one set layer itself when only one is set.
 */
function layeredParams(...layers: (Record<string, unknown> | undefined)[]): Record<string, unknown> | undefined {
  // Every model call asks: with one layer set (or none) nothing is copied.
  let only: Record<string, unknown> | undefined;
  let merged: Record<string, unknown> | undefined;
  for (const layer of layers) {
    if (layer === undefined) continue;
    if (only === undefined) only = layer;
    else merged = Object.assign(merged ?? { ...only }, layer);
  }
  return merged ?? only;
}

/** A request's own token cap never asks a model for more than its configured `maxTokens`. */
function withinModelTokens(params: Record<string, unknown>, modelMax: number): Record<string, unknown> {
  const asked = params.max_tokens;
  return typeof asked === "number" && asked > modelMax ? { ...params, max_tokens: modelMax } : params;
}

/** A key written for the server (config, auth profile), not one from the environment. */
function writtenForServer(profile: AuthProfile): boolean {
  return profile.source !== "env";
}

/** The one "key" of a provider that takes requests without one: nothing is sent. */
function keylessProfile(provider: string): AuthProfile {
  return { id: `${provider}:keyless`, provider, type: "api_key", secret: "", source: "config" };
}

function noKeyMessage(model: ProviderModel, config: OpenClawConfig): string {
  const unset = unsetApiKeyVariable(config, model.provider);
  if (unset) return `No API key for provider "${model.provider}" (model ${model.ref}): ${unset}`;
  const envVar = apiKeyEnvVar(model.provider);
  return `No API key for provider "${model.provider}" (model ${model.ref}). Set ${envVar} (or ${envVar}S), models.providers.${model.provider}.apiKey, or add a profile to auth-profiles.json.`;
}
