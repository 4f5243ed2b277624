import type { OpenClawConfig } from "../config/index.js";
import { createRemoteEmbedder, type Embedder } from "./embeddings.js";
import { resolveEmbeddingSettings } from "./settings.js";

export type ConfiguredEmbedder = { embedder: Embedder } | { reason: string };

const built = new WeakMap<OpenClawConfig, ConfiguredEmbedder>();

/**
 * The embedder `memory.search` is configured with (provider, model, endpoint, key), for other
 * texts than memory files; or why there is none. Built once per config object.
 */
export function embedderFromConfig(config: OpenClawConfig, env: NodeJS.ProcessEnv): ConfiguredEmbedder {
  let result = built.get(config);
  if (!result) {
    const settings = resolveEmbeddingSettings(config, env);
    result = settings.kind === "remote" ? { embedder: createRemoteEmbedder(settings) } : { reason: settings.reason };
    built.set(config, result);
  }
  return result;
}
