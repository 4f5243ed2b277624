import type { ModelErrorKind, ModelStreamEvent, ResolvedModel } from "../agents/types.js";

/**
 * What resolveModel returns: the binding ResolvedModel plus transport settings that only the
 * provider adapters read. Extra fields survive being passed through ModelRequest.model, so
 * the agent contracts stay untouched while the SDK still gets the configured timeout.
 */
export interface ProviderModel extends ResolvedModel {
  /** `models.providers.<id>.timeoutSeconds`; absent = the SDK default. */
  timeoutSeconds?: number;
}

export type ResolveModelResult = { ok: true; model: ProviderModel } | { ok: false; message: string };

/** One row of `listConfiguredModels`, shaped for a future `models.list` method. */
export interface ConfiguredModelInfo {
  ref: string;
  provider: string;
  id: string;
  name?: string;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  input: ("text" | "image")[];
  /** True when the provider resolves (known api, baseUrl and key): a request could be made. */
  available: boolean;
}

/** A provider failure reduced to what the loop and the failover policy decide on. */
export interface ClassifiedModelError {
  kind: ModelErrorKind;
  retryable: boolean;
  message: string;
}

/** What a provider's stream reader made of one wire event. */
export interface ReadResult {
  events: ModelStreamEvent[];
  /** Set when the stream cannot go on (e.g. a tool call with broken arguments). */
  failure?: ClassifiedModelError;
}
