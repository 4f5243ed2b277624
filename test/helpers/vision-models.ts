/**
 * An OpenAI-wire provider on the fake model server with two models: `vision` takes images,
 * `text-only` does not (what a test of image input needs on both sides).
 */
export function visionProvider(modelServerUrl: string): Record<string, unknown> {
  const window = { contextWindow: 120000, maxTokens: 4096 };
  return {
    baseUrl: `${modelServerUrl}/v1`,
    apiKey: "sk-fake",
    api: "openai-completions",
    models: [
      { id: "vision", input: ["text", "image"], ...window },
      { id: "text-only", input: ["text"], ...window },
    ],
  };
}
