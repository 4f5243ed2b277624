import type { OpenClawConfig } from "../config/index.js";
import { createRemoteEmbedder, EmbeddingError, resolveEmbeddingSettings } from "../memory/index.js";
import { OpenAiRequestError } from "./http/openai/openai-errors.js";
import type { OpenAiRouteDeps } from "./http/openai/types.js";

/**
 * `/v1/embeddings`' vectors: from the embedding model memory search is set up with
 * (`memory.search.provider`, `memory.search.model`), or from the `provider/model` a request names
 * in `x-openclaw-model` (that provider's endpoint and key). Embeddings that are not set up are a
 * 503 saying what to set; a provider's failure is a 502 with its reason (secrets redacted there).
 */
export function httpEmbeddings(config: () => OpenClawConfig): OpenAiRouteDeps["embed"] {
  return async ({ texts, model, signal }) => {
    const override = model === undefined ? undefined : providerModel(model);
    const settings = resolveEmbeddingSettings(config(), process.env, override);
    if (settings.kind === "none") {
      throw new OpenAiRequestError(`Embeddings are not set up: ${settings.reason}.`, undefined, "embeddings_not_configured", 503, "api_error");
    }
    if (override && !settings.baseUrl) {
      throw new OpenAiRequestError(
        `Unknown x-openclaw-model: provider "${override.provider}" is not configured (models.providers.${override.provider}).`,
        "x-openclaw-model",
        "model_not_found",
      );
    }
    let promptTokens: number | undefined;
    try {
      const vectors = await createRemoteEmbedder(settings).embed(texts, { signal, retries: 1, onUsage: (tokens) => (promptTokens = (promptTokens ?? 0) + tokens) });
      return { vectors, ...(promptTokens !== undefined ? { promptTokens } : {}) };
    } catch (err) {
      if (err instanceof EmbeddingError) throw new OpenAiRequestError(err.message, undefined, err.kind === "unreachable" ? "network" : "server", 502, "api_error");
      throw err;
    }
  };
}

function providerModel(ref: string): { provider: string; model: string } {
  const slash = ref.indexOf("/");
  if (slash <= 0 || slash === ref.length - 1) throw new OpenAiRequestError("x-openclaw-model must be provider/model for embeddings.", "x-openclaw-model");
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}
