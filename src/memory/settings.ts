import type { OpenClawConfig } from "../config/index.js";
import type { LocalServiceSpec } from "../infra/local-services/local-service-spec.js";
import { apiKeyEnvVar, BUILTIN_PROVIDERS, configuredApiKey, localServiceSpecOf, ollamaBearerKey, ollamaKeyOptional, usableApiKey } from "../models/index.js";

/** Retrieval defaults (docs/memory.md, "How a search ranks"). */
export const MEMORY_DEFAULTS = {
  chunkTokens: 400,
  chunkOverlap: 80,
  maxResults: 6,
  minScore: 0.35,
  vectorWeight: 0.7,
  textWeight: 0.3,
  candidateMultiplier: 4,
  mmrLambda: 0.7,
  halfLifeDays: 30,
  watchDebounceMs: 1_500,
  batchSize: 64,
  model: "text-embedding-3-small",
} as const;

/** Where embeddings come from, or why there are none. */
export type EmbeddingSettings =
  | {
      kind: "remote";
      provider: string;
      model: string;
      baseUrl: string;
      apiKey?: string;
      batchSize: number;
      explicit: boolean;
      /** The provider's `localService`, leased before each request, when the endpoint is that provider's own baseUrl. */
      localService?: LocalServiceSpec;
    }
  | { kind: "none"; reason: string };

export interface MemorySettings {
  enabled: boolean;
  embedding: EmbeddingSettings;
  /** What is indexed: `memory` (the Markdown files) and, when asked, `sessions` (the agent's transcripts). */
  sources: ("memory" | "sessions")[];
  extraPaths: string[];
  chunkTokens: number;
  chunkOverlap: number;
  watch: boolean;
  watchDebounceMs: number;
  maxResults: number;
  minScore: number;
  vectorWeight: number;
  textWeight: number;
  candidateMultiplier: number;
  mmr: { enabled: boolean; lambda: number };
  decay: { enabled: boolean; halfLifeDays: number };
}

type SearchConfig = NonNullable<NonNullable<OpenClawConfig["memory"]>["search"]>;

/**
 * `memory.search` with defaults (the older `agents.defaults.memorySearch` was moved there when
 * the config loaded).
 * Embeddings: `provider: none` turns them off; a named provider (or `remote.baseUrl`) is
 * explicit and fails closed when unreachable; nothing configured uses OpenAI when its key is in
 * the environment, and keyword ranking otherwise.
 */
export function resolveMemorySettings(config: OpenClawConfig, env: NodeJS.ProcessEnv): MemorySettings {
  const merged: SearchConfig = config.memory?.search ?? {};
  const query = merged.query ?? {};
  const chunkTokens = merged.chunking?.tokens ?? MEMORY_DEFAULTS.chunkTokens;
  return {
    enabled: merged.enabled ?? true,
    embedding: resolveEmbedding(merged, config, env),
    sources: merged.sources?.includes("sessions") ? ["memory", "sessions"] : ["memory"],
    extraPaths: merged.extraPaths ?? [],
    chunkTokens,
    chunkOverlap: Math.min(merged.chunking?.overlap ?? MEMORY_DEFAULTS.chunkOverlap, Math.floor(chunkTokens / 2)),
    watch: merged.sync?.watch ?? true,
    watchDebounceMs: merged.sync?.watchDebounceMs ?? MEMORY_DEFAULTS.watchDebounceMs,
    maxResults: query.maxResults ?? MEMORY_DEFAULTS.maxResults,
    minScore: query.minScore ?? MEMORY_DEFAULTS.minScore,
    vectorWeight: query.hybrid?.vectorWeight ?? MEMORY_DEFAULTS.vectorWeight,
    textWeight: query.hybrid?.textWeight ?? MEMORY_DEFAULTS.textWeight,
    candidateMultiplier: query.hybrid?.candidateMultiplier ?? MEMORY_DEFAULTS.candidateMultiplier,
    mmr: { enabled: query.mmr?.enabled ?? true, lambda: query.mmr?.lambda ?? MEMORY_DEFAULTS.mmrLambda },
    decay: { enabled: query.temporalDecay?.enabled ?? true, halfLifeDays: query.temporalDecay?.halfLifeDays ?? MEMORY_DEFAULTS.halfLifeDays },
  };
}

/**
 * The embeddings `memory.search` sets up, or those of `override` (a `provider/model` asked for by
 * name: that provider's endpoint and key, that model).
 */
export function resolveEmbeddingSettings(config: OpenClawConfig, env: NodeJS.ProcessEnv, override?: { provider: string; model: string }): EmbeddingSettings {
  const search: SearchConfig = config.memory?.search ?? {};
  // Another provider's endpoint and key are its own: memory.search.remote's are not carried over.
  const { remote: _remote, ...rest } = search;
  return resolveEmbedding(override ? { ...rest, provider: override.provider, model: override.model } : search, config, env);
}

function resolveEmbedding(search: SearchConfig, config: OpenClawConfig, env: NodeJS.ProcessEnv): EmbeddingSettings {
  const named = search.provider?.trim();
  if (named === "none") return { kind: "none", reason: 'memory.search.provider is "none": keyword ranking only' };
  const explicit = (named !== undefined && named !== "auto") || search.remote?.baseUrl !== undefined;
  const provider = named && named !== "auto" ? named : "openai";
  const configured = config.models?.providers?.[provider];
  const ollama = (configured?.api ?? BUILTIN_PROVIDERS[provider]?.api) === "ollama";
  const root = search.remote?.baseUrl ?? configured?.baseUrl ?? BUILTIN_PROVIDERS[provider]?.baseUrl;
  // An Ollama provider's URL is the server's root; its OpenAI-compatible embeddings live under /v1.
  const baseUrl = root && ollama ? ollamaOpenAiBase(root) : root;
  const written = usableApiKey(search.remote?.apiKey) ?? configuredApiKey(config, provider);
  // An Ollama on this machine or the LAN is never sent OLLAMA_API_KEY from the environment (Ollama Cloud's), as for chat.
  const fromEnv = ollama && root && ollamaKeyOptional(root) ? undefined : nonEmpty(env[apiKeyEnvVar(provider)]);
  const apiKey = ollama ? ollamaBearerKey(written ?? fromEnv) : (written ?? fromEnv);
  const model = search.model ?? (ollama ? OLLAMA_EMBEDDING_MODEL : MEMORY_DEFAULTS.model);
  const batchSize = search.remote?.batchSize ?? MEMORY_DEFAULTS.batchSize;
  if (!baseUrl) {
    if (explicit) return { kind: "remote", provider, model, baseUrl: "", batchSize, explicit };
    return { kind: "none", reason: "no embedding provider configured: keyword ranking only (set memory.search.provider)" };
  }
  if (!explicit && !apiKey) {
    return { kind: "none", reason: `no embedding provider configured and ${apiKeyEnvVar(provider)} is not set: keyword ranking only` };
  }
  // The provider's server serves these embeddings unless memory.search.remote.baseUrl points elsewhere.
  const providerRoot = configured?.baseUrl ?? BUILTIN_PROVIDERS[provider]?.baseUrl;
  const ownEndpoint = providerRoot !== undefined && (search.remote?.baseUrl === undefined || search.remote.baseUrl === providerRoot);
  const api = configured?.api ?? BUILTIN_PROVIDERS[provider]?.api ?? "openai-completions";
  const localService = ownEndpoint ? localServiceSpecOf(provider, configured, { baseUrl: providerRoot, api, ...(apiKey ? { apiKey } : {}) }) : undefined;
  return { kind: "remote", provider, model, baseUrl: baseUrl.replace(/\/+$/, ""), ...(apiKey ? { apiKey } : {}), batchSize, explicit, ...(localService ? { localService } : {}) };
}

/** The embedding model an Ollama provider uses when memory.search.model names none (OpenClaw's). */
const OLLAMA_EMBEDDING_MODEL = "nomic-embed-text";

function ollamaOpenAiBase(root: string): string {
  const trimmed = root.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== "" ? value : undefined;
}
