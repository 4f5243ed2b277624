import type { AssistantMessage, ModelMessage, ToolCallBlock, Usage } from "./messages.js";
import type { LocalServiceSpec } from "../infra/local-services/local-service-spec.js";

// ── Models ────────────────────────────────────────────────────────────────────────────────────
export type ModelApi = "anthropic-messages" | "openai-completions" | "openai-responses" | "ollama";

/** A model ref (`provider/model`) resolved against config and env into what a request needs. */
export interface ResolvedModel {
  ref: string;
  provider: string;
  id: string;
  api: ModelApi;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  input: ("text" | "image")[];
  /** Per-request timeout from `models.providers.<id>.timeoutSeconds`. */
  timeoutSeconds?: number;
}

/** A tool as the model sees it: JSON Schema parameters, normalized per provider by the provider. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: ResolvedModel;
  systemPrompt: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  /** The thinking level asked for (session, agent default); each provider maps or drops it (docs/models.md). */
  thinking?: string;
  /** `agents.defaults.models.<ref>.params` of the model this request goes to (temperature, maxTokens, top_p, …). */
  params?: Record<string, unknown>;
}

export type ModelErrorKind = "config" | "auth" | "rate_limit" | "server" | "network" | "malformed" | "context_length" | "bad_request" | "aborted" | "timeout" | "unknown";

/**
 * One internal stream for every provider. Rules: a provider's stream function must not throw;
 * every failure (HTTP status, network, a malformed stream, abort) is a final `error` event. A
 * stream ends with exactly one `done` or `error`. Tool calls arrive assembled (`toolcall`), after
 * their argument deltas were joined and parsed.
 */
export type ModelStreamEvent =
  | { type: "text_delta"; delta: string }
  | { type: "thinking_delta"; delta: string }
  | { type: "toolcall"; call: ToolCallBlock }
  | { type: "usage"; usage: Usage }
  | { type: "done"; stopReason: "stop" | "length" | "toolUse"; message: AssistantMessage }
  | { type: "error"; kind: ModelErrorKind; error: string; retryable: boolean; message: AssistantMessage; status?: number; retryAfterMs?: number };

export type StreamModelFn = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelStreamEvent>;

/**
 * What resolveModel returns: the binding ResolvedModel plus transport settings that only the
 * provider adapters read. Extra fields survive being passed through ModelRequest.model, so
 * the agent contracts stay untouched while the SDK still gets the configured timeout.
 */
export interface ProviderModel extends ResolvedModel {
  /** `models.providers.<id>.timeoutSeconds`; absent = the SDK default. */
  timeoutSeconds?: number;
  /** `models.providers.<id>.firstByteTimeoutSeconds`: the wait for the first stream event (stream-watchdog.ts has the default). */
  firstByteTimeoutSeconds?: number;
  /** `models.providers.<id>.idleTimeoutSeconds`: the wait between stream events once the reply began. */
  idleTimeoutSeconds?: number;
  /**
   * Retries the SDK may make for this request (429, 5xx, connection failures), waiting as the
   * provider asks up to `OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS`. Failover sets 0 while it has
   * another key or model to try; absent = the SDK's default.
   */
  sdkMaxRetries?: number;
  /** How `apiKey` is sent: the provider's key header (default), or `Authorization: Bearer` for a `token` profile. */
  authType?: "api_key" | "token";
  /** `models.providers.<id>.models[].contextTokens`: this model's active input budget (Ollama's `num_ctx` when params set none). */
  contextTokens?: number;
  /** The provider takes requests without a key (an Ollama server on this machine or the LAN). */
  keyOptional?: true;
  /** `models.providers.<id>.models[].params` of this model: over `agents.defaults.models.<ref>.params` where both set a key. */
  params?: Record<string, unknown>;
  /** `models.providers.<id>.localService`: the server each request to this model leases first (local-model-services.ts). */
  localService?: LocalServiceSpec;
}

/** The SDKs' own default (Anthropic and OpenAI alike). */
export const SDK_DEFAULT_RETRIES = 2;

export function sdkRetries(model: ProviderModel): number {
  return model.sdkMaxRetries ?? SDK_DEFAULT_RETRIES;
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
  /** The provider's base URL, when it resolves. */
  baseUrl?: string;
}

/** A provider failure reduced to what the loop and the failover policy decide on. */
export interface ClassifiedModelError {
  kind: ModelErrorKind;
  retryable: boolean;
  message: string;
  /** The HTTP status, when the provider answered with one. */
  status?: number;
  /** What the provider's `retry-after` / `retry-after-ms` header asked for. */
  retryAfterMs?: number;
}

/** What a provider's stream reader made of one wire event. */
export interface ReadResult {
  events: ModelStreamEvent[];
  /** Set when the stream cannot go on (e.g. a tool call with broken arguments). */
  failure?: ClassifiedModelError;
}
