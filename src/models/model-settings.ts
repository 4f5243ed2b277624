import { ollamaWireSettings } from "./ollama-settings.js";
import type { ModelApi, ModelRequest, ResolvedModel } from "./types.js";

/**
 * A turn's model settings as each API takes them: the thinking level (Anthropic `thinking`
 * budgets, OpenAI `reasoning_effort`, Ollama `think`) and the model's params. What a model or
 * API cannot take is left out and named in `dropped`, so the caller can log it (docs/models.md).
 */
export interface WireSettings {
  /** Body fields to send, already in the API's names. */
  fields: Record<string, unknown>;
  /** `max_tokens` when params override the model's. */
  maxTokens?: number;
  /** `params.extra_body` (Chat Completions only): fields written last, over the generated ones. */
  extraBody?: Record<string, unknown>;
  /** `params.cacheRetention` (Anthropic only): `none` sends no cache breakpoints, `long` asks for the 1-hour cache. */
  cacheRetention?: CacheRetention;
  dropped: string[];
}

export type CacheRetention = "none" | "short" | "long";
const CACHE_RETENTIONS: readonly string[] = ["none", "short", "long"];

/** Body keys the gateway writes itself: `extra_body` cannot replace them. */
const STRUCTURAL_KEYS = new Set(["model", "messages", "stream", "stream_options", "tools"]);
const EXTRA_BODY_KEYS = new Set(["extra_body", "extraBody"]);

/** Anthropic thinking budgets per level (tokens). */
export const ANTHROPIC_THINKING_BUDGETS: Record<string, number> = {
  minimal: 1_024,
  low: 4_096,
  medium: 10_000,
  adaptive: 10_000,
  high: 24_000,
  xhigh: 32_000,
  max: 48_000,
};

/** OpenAI `reasoning_effort` (Responses: `reasoning.effort`) per level. */
export const OPENAI_REASONING_EFFORT: Record<string, string> = {
  minimal: "minimal",
  low: "low",
  medium: "medium",
  adaptive: "medium",
  high: "high",
  xhigh: "high",
  max: "high",
};

// params keys (either spelling) → each API's field; absent = that API has no such field.
const PARAM_FIELDS: Record<string, Partial<Record<ModelApi, string>>> = {
  temperature: { "openai-completions": "temperature", "openai-responses": "temperature" },
  topP: { "openai-completions": "top_p", "openai-responses": "top_p" },
  top_p: { "openai-completions": "top_p", "openai-responses": "top_p" },
  presencePenalty: { "openai-completions": "presence_penalty" },
  presence_penalty: { "openai-completions": "presence_penalty" },
  frequencyPenalty: { "openai-completions": "frequency_penalty" },
  frequency_penalty: { "openai-completions": "frequency_penalty" },
  seed: { "openai-completions": "seed" },
  stop: { "openai-completions": "stop", "anthropic-messages": "stop_sequences" },
  stopSequences: { "openai-completions": "stop", "anthropic-messages": "stop_sequences" },
  stop_sequences: { "openai-completions": "stop", "anthropic-messages": "stop_sequences" },
  topK: { "anthropic-messages": "top_k" },
  top_k: { "anthropic-messages": "top_k" },
  // vLLM's and other OpenAI-compatible servers' chat-template arguments (`{ enable_thinking: false }`).
  chat_template_kwargs: { "openai-completions": "chat_template_kwargs" },
};

const MAX_TOKENS_KEYS = new Set(["maxTokens", "max_tokens"]);

export function wireSettings(request: Pick<ModelRequest, "thinking" | "params" | "maxTokens"> & { model: ResolvedModel }): WireSettings {
  const { model } = request;
  if (model.api === "ollama") return ollamaWireSettings(request);
  const out: WireSettings = { fields: {}, dropped: [] };
  for (const [key, value] of Object.entries(request.params ?? {})) {
    if (value === undefined || value === null) continue;
    if (MAX_TOKENS_KEYS.has(key) && typeof value === "number" && Number.isInteger(value) && value > 0) {
      out.maxTokens = value;
      continue;
    }
    if (EXTRA_BODY_KEYS.has(key)) {
      extraBody(key, value, model.api, out);
      continue;
    }
    if (key === "cacheRetention") {
      if (model.api !== "anthropic-messages") out.dropped.push(`params.cacheRetention (${model.api} caches prompts by itself; the setting is for Anthropic)`);
      else if (typeof value === "string" && CACHE_RETENTIONS.includes(value)) out.cacheRetention = value as CacheRetention;
      else out.dropped.push(`params.cacheRetention ${JSON.stringify(value)} (use none, short or long)`);
      continue;
    }
    const field = PARAM_FIELDS[key]?.[model.api];
    if (field) out.fields[field] = field === "stop_sequences" && typeof value === "string" ? [value] : value;
    else out.dropped.push(`params.${key} (not sent to ${model.api})`);
  }
  const level = request.thinking;
  if (!level || level === "off") return out;
  if (!model.reasoning) {
    out.dropped.push(`thinking "${level}" (${model.ref} is not a reasoning model: set reasoning: true on it under models.providers)`);
    return out;
  }
  const maxTokens = out.maxTokens ?? request.maxTokens ?? model.maxTokens;
  if (model.api === "anthropic-messages") {
    // The budget must leave room for the answer: it is capped below max_tokens, and a window too small for the minimum drops it.
    const budget = Math.min(ANTHROPIC_THINKING_BUDGETS[level] ?? ANTHROPIC_THINKING_BUDGETS.medium!, maxTokens - 1_024);
    if (budget < 1_024) out.dropped.push(`thinking "${level}" (max_tokens ${maxTokens} leaves no room for the 1024-token minimum budget)`);
    else out.fields.thinking = { type: "enabled", budget_tokens: budget };
    return out;
  }
  const effort = OPENAI_REASONING_EFFORT[level] ?? "medium";
  if (model.api === "openai-responses") out.fields.reasoning = { effort };
  else out.fields.reasoning_effort = effort;
  return out;
}

/** `params.extra_body` for Chat Completions: a JSON object whose fields go last; the gateway's own structure stays. */
function extraBody(key: string, value: unknown, api: ModelApi, out: WireSettings): void {
  if (api !== "openai-completions") return void out.dropped.push(`params.${key} (not sent to ${api}: it is for OpenAI-compatible Chat Completions servers)`);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return void out.dropped.push(`params.${key} (not a JSON object)`);
  for (const [field, fieldValue] of Object.entries(value)) {
    if (STRUCTURAL_KEYS.has(field)) out.dropped.push(`params.${key}.${field} (the gateway writes ${field} itself)`);
    else (out.extraBody ??= {})[field] = fieldValue;
  }
}
