import type { ModelApi } from "./types.js";

/** Providers that work with nothing but an API key in the environment. */
export interface BuiltinProvider {
  api: ModelApi;
  baseUrl: string;
}

export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = {
  anthropic: { api: "anthropic-messages", baseUrl: "https://api.anthropic.com" },
  openai: { api: "openai-completions", baseUrl: "https://api.openai.com/v1" },
  // A local Ollama on its default port, spoken to natively (no /v1).
  ollama: { api: "ollama", baseUrl: "http://127.0.0.1:11434" },
};

/**
 * The apis this build can talk to. A config naming another of OpenClaw's apis
 * (`google-generative-ai`, `bedrock-converse-stream`, …) gets a clear "… is not supported yet"
 * error for that model; those clients are not built.
 */
export const SUPPORTED_APIS: readonly ModelApi[] = ["anthropic-messages", "openai-completions", "openai-responses", "ollama"];

/** Capabilities assumed for a model the config does not list (its window: see context-window.ts). */
export const MODEL_DEFAULTS = {
  maxTokens: 8192,
  reasoning: false,
  input: ["text"] as ("text" | "image")[],
} as const;

export const EXAMPLE_MODEL_REF = "anthropic/claude-sonnet-4-5";

/**
 * `<PROVIDER>_API_KEY`: the provider id upper-cased, with anything that cannot appear in an
 * environment variable name (`-`, `.`) turned into `_`, so `my-llm` reads `MY_LLM_API_KEY`.
 */
export function apiKeyEnvVar(providerId: string): string {
  return `${providerId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
}

export function isSupportedApi(api: string): api is ModelApi {
  return (SUPPORTED_APIS as readonly string[]).includes(api);
}
