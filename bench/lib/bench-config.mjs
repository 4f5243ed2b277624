// The config file the startup benchmark writes: OpenClaw's own benchmark config, unchanged.
import path from "node:path";

export const CONFIG_TOKEN = "bench-token";

/** `models`: one fake OpenAI-style provider at a fixed address, its model with every field OpenClaw lists. */
export const BENCH_MODELS = {
  mode: "merge",
  providers: {
    fake: {
      baseUrl: "http://127.0.0.1:18999/v1",
      apiKey: "sk-local",
      api: "openai-completions",
      models: [
        {
          id: "fake-model",
          name: "Fake Model",
          reasoning: false,
          input: ["text"],
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          contextWindow: 120000,
          maxTokens: 8192,
        },
      ],
    },
  },
};

/** The benchmark's config file: loopback, token auth, one fake OpenAI-style model provider. */
export function benchConfig(dir, port) {
  return {
    gateway: {
      mode: "local",
      bind: "loopback",
      port,
      auth: { mode: "token", token: CONFIG_TOKEN },
      http: { endpoints: { chatCompletions: { enabled: true } } },
    },
    logging: { file: path.join(dir, "gateway.log") },
    agents: { defaults: { workspace: path.join(dir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: BENCH_MODELS,
  };
}
