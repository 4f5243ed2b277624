import type { WireSettings } from "./model-settings.js";
import type { ModelRequest, ProviderModel, ResolvedModel } from "./types.js";

/**
 * Ollama's runtime options: a model's `params` key of the same name goes into `/api/chat`'s
 * `options`; the camelCase spellings the other apis take are read too.
 */
const OPTION_KEYS: Record<string, string> = {
  num_ctx: "num_ctx",
  num_keep: "num_keep",
  seed: "seed",
  num_predict: "num_predict",
  top_k: "top_k",
  topK: "top_k",
  top_p: "top_p",
  topP: "top_p",
  min_p: "min_p",
  typical_p: "typical_p",
  repeat_last_n: "repeat_last_n",
  temperature: "temperature",
  repeat_penalty: "repeat_penalty",
  presence_penalty: "presence_penalty",
  presencePenalty: "presence_penalty",
  frequency_penalty: "frequency_penalty",
  frequencyPenalty: "frequency_penalty",
  stop: "stop",
  stopSequences: "stop",
  num_batch: "num_batch",
  num_gpu: "num_gpu",
  main_gpu: "main_gpu",
  use_mmap: "use_mmap",
  num_thread: "num_thread",
};

/** Keys that are fields of the request itself, not options. */
const TOP_LEVEL_KEYS = new Set(["format", "keep_alive", "truncate", "shift"]);

/** `think` per thinking level: Ollama takes false, or an effort of low, medium or high. */
const THINK_EFFORT: Record<string, string> = { minimal: "low", low: "low", medium: "medium", adaptive: "medium", high: "high", xhigh: "high", max: "high" };

const MAX_TOKENS_KEYS = new Set(["maxTokens", "max_tokens"]);

/**
 * A turn's settings as `/api/chat` takes them. `options` and the top-level fields come from the
 * model's params; `think` from `params.think` (or `params.thinking`) when the turn asks for no
 * thinking level of its own, else from the level: `off` sends `think: false`, a level sends its
 * effort, and only to a model marked `reasoning: true`.
 */
export function ollamaWireSettings(request: Pick<ModelRequest, "thinking" | "params" | "maxTokens"> & { model: ResolvedModel }): WireSettings {
  const out: WireSettings = { fields: {}, dropped: [] };
  const options: Record<string, unknown> = {};
  let configuredThink: unknown;
  for (const [key, value] of Object.entries(request.params ?? {})) {
    if (value === undefined || value === null) continue;
    if (MAX_TOKENS_KEYS.has(key) && typeof value === "number" && Number.isInteger(value) && value > 0) {
      out.maxTokens = value;
      continue;
    }
    if (key === "think" || key === "thinking") {
      configuredThink = value;
      continue;
    }
    if (key === "num_ctx" && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      out.dropped.push(`params.num_ctx (${JSON.stringify(value)} is not a positive number)`);
      continue;
    }
    const option = OPTION_KEYS[key];
    if (option) options[option] = value;
    else if (TOP_LEVEL_KEYS.has(key)) out.fields[key] = value;
    else out.dropped.push(`params.${key} (not sent to ollama)`);
  }
  // The model entry's contextTokens sizes the server's window when the params name none, as in OpenClaw.
  const contextTokens = (request.model as ProviderModel).contextTokens;
  if (options.num_ctx === undefined && contextTokens !== undefined) options.num_ctx = contextTokens;
  const maxTokens = out.maxTokens ?? request.maxTokens ?? request.model.maxTokens;
  if (options.num_predict === undefined && maxTokens !== undefined) options.num_predict = maxTokens;
  if (Object.keys(options).length > 0) out.fields.options = options;
  const think = thinkField(request, configuredThink, out.dropped);
  if (think !== undefined) out.fields.think = think;
  return out;
}

function thinkField(request: Pick<ModelRequest, "thinking"> & { model: ResolvedModel }, configured: unknown, dropped: string[]): boolean | string | undefined {
  const level = request.thinking;
  if (!level || (level === "off" && configured !== undefined)) return configuredThinkValue(configured, request.model, dropped);
  if (level === "off") return false;
  if (!request.model.reasoning) {
    dropped.push(`thinking "${level}" (${request.model.ref} is not a reasoning model: set reasoning: true on it under models.providers)`);
    return undefined;
  }
  return THINK_EFFORT[level] ?? "medium";
}

function configuredThinkValue(value: unknown, model: ResolvedModel, dropped: string[]): boolean | string | undefined {
  if (value === undefined) return undefined;
  if (value === false || value === "off") return false;
  const effort = value === true ? true : typeof value === "string" ? THINK_EFFORT[value] : undefined;
  if (effort === undefined) {
    dropped.push(`params.think (${JSON.stringify(value)}: expected true, false, off, low, medium or high)`);
    return undefined;
  }
  if (!model.reasoning) {
    dropped.push(`params.think (${model.ref} is not a reasoning model: set reasoning: true on it under models.providers)`);
    return undefined;
  }
  return effort;
}
