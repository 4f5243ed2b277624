import type { Embedder } from "./embeddings.js";

/**
 * Whether an index's embedding provider answers (`doctor.memory.status`'s `embedding`).
 * `checked` is false while nothing has asked the provider since the index opened; `error` says
 * why it is not ready, or how to check.
 */
export interface EmbeddingReadiness {
  ok: boolean;
  checked: boolean;
  error?: string;
}

export const READY: EmbeddingReadiness = { ok: true, checked: true };

export const NOT_CHECKED: EmbeddingReadiness = {
  ok: false,
  checked: false,
  error: "memory embeddings have not been asked for a vector since the gateway opened this index; call doctor.memory.status with probe: true to ask the provider now",
};

export function notReady(error: string): EmbeddingReadiness {
  return { ok: false, checked: true, error };
}

/** `embedder`, calling `onAnswer` after every request that returned vectors. */
export function observeAnswers(embedder: Embedder, onAnswer: () => void): Embedder {
  return {
    provider: embedder.provider,
    model: embedder.model,
    key: embedder.key,
    async embed(texts, options) {
      const vectors = await embedder.embed(texts, options);
      onAnswer();
      return vectors;
    },
  };
}
