import type { ModelApi } from "../../../src/agents/types.js";
import { createAnthropicStream } from "../../../src/models/anthropic-provider.js";
import { createOpenAICompletionsStream } from "../../../src/models/openai-completions-provider.js";
import { createOpenAIResponsesStream } from "../../../src/models/openai-responses-provider.js";
import { createOllamaStream } from "../../../src/models/ollama-provider.js";

/** Every provider's stream, with its wire API and the path it requests on the fake model server: a table for `describe.each`. */
export const PROVIDER_STREAMS = [
  { api: "anthropic-messages" as ModelApi, stream: createAnthropicStream(), path: "/v1/messages" },
  { api: "openai-completions" as ModelApi, stream: createOpenAICompletionsStream(), path: "/v1/chat/completions" },
  { api: "openai-responses" as ModelApi, stream: createOpenAIResponsesStream(), path: "/v1/responses" },
  { api: "ollama" as ModelApi, stream: createOllamaStream(), path: "/api/chat" },
];
