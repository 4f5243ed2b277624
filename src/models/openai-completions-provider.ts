import type OpenAI from "openai";
import type { Stream } from "openai/streaming";
import type { StreamModelFn } from "./types.js";
import { OpenAIChunkReader } from "./openai-chunks.js";
import { openAIRequestBody } from "./openai-request-json.js";
import { streamThroughSdk, type SdkStreamProvider } from "./sdk-stream.js";
import { createOpenAIClient, OPENAI_SDK_ERRORS } from "./openai-client.js";

const OPENAI_COMPLETIONS: SdkStreamProvider<OpenAI, OpenAI.ChatCompletionChunk> = {
  kind: "openai",
  errors: OPENAI_SDK_ERRORS,
  createClient: createOpenAIClient,
  // The same request as `client.chat.completions.create(params)`, with the body serialized by
  // openAIRequestBody (per-message JSON reused across turns) and handed over as bytes, which
  // the SDK and fetch pass through without another copy.
  open: (client, request, options) =>
    client.post<Stream<OpenAI.ChatCompletionChunk>>("/chat/completions", {
      body: openAIRequestBody(request),
      headers: { "content-type": "application/json" },
      stream: true,
      ...options,
    }),
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
