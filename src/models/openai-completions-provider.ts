import OpenAI from "openai";
import type { Stream } from "openai/streaming";
import type { StreamModelFn } from "./types.js";
import { OpenAIChunkReader } from "./openai-chunks.js";
import { openAIRequestBody } from "./openai-request-json.js";
import { streamThroughSdk, type SdkStreamProvider } from "./sdk-stream.js";

const OPENAI_COMPLETIONS: SdkStreamProvider<OpenAI, OpenAI.ChatCompletionChunk> = {
  kind: "openai",
  errors: {
    APIError: OpenAI.APIError,
    APIUserAbortError: OpenAI.APIUserAbortError,
    APIConnectionError: OpenAI.APIConnectionError,
    APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError,
  },
  createClient: (model, shared) =>
    new OpenAI({
      ...shared,
      baseURL: model.baseUrl,
      // Never forward OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to a third party.
      organization: null,
      project: null,
    }),
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
};

/**
 * A StreamModelFn for `api: "openai-completions"` (OpenAI and every server speaking Chat
 * Completions). The configured baseUrl is used as is: the OpenAI SDK's baseURL includes
 * `/v1` (it appends only `/chat/completions`).
 */
export function createOpenAICompletionsStream(): StreamModelFn {
  return (request, signal) => streamThroughSdk(OPENAI_COMPLETIONS, request, signal);
}
