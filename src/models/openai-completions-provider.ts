import type OpenAI from "openai";
import type { ProviderModel, StreamModelFn } from "./types.js";
import { ChatCompletionsClient, OPENAI_ERRORS_ONCE_LOADED, openChatCompletionsStream } from "./openai-chat-stream.js";
import { OpenAIChunkReader } from "./openai-chunks.js";
import { openAIRequestBody } from "./openai-request-json.js";
import { streamThroughSdk, type SdkStreamProvider } from "./sdk-stream.js";

const OPENAI_COMPLETIONS: SdkStreamProvider<ChatCompletionsClient, OpenAI.ChatCompletionChunk> = {
  kind: "openai-chat-completions",
  errors: OPENAI_ERRORS_ONCE_LOADED,
  // The SDK client is made (and the SDK loaded) only when a request needs it (ChatCompletionsClient).
  createClient: (model, shared) => new ChatCompletionsClient(model, shared),
  // The same request as `client.chat.completions.create(params)`, with the body serialized by
  // openAIRequestBody (per-message JSON reused across turns) as bytes; a 2xx event stream is
  // read without the SDK, anything else goes through it (openChatCompletionsStream).
  open: (client, request, options) => openChatCompletionsStream(client, request.model as ProviderModel, openAIRequestBody(request), options),
  reader: (turn) => new OpenAIChunkReader(turn),
  endpoint: (model) => (model.baseUrl ? { baseUrl: model.baseUrl, path: "/chat/completions", baseUrlCarriesVersion: true } : undefined),
};

/**
 * A StreamModelFn for `api: "openai-completions"` (OpenAI and every server speaking Chat
 * Completions). The configured baseUrl is used as is: the OpenAI SDK's baseURL includes
 * `/v1` (it appends only `/chat/completions`).
 */
export function createOpenAICompletionsStream(): StreamModelFn {
  return (request, signal) => streamThroughSdk(OPENAI_COMPLETIONS, request, signal);
}
