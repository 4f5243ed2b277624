import OpenAI from "openai";
import type { Stream } from "openai/streaming";
import type { ModelRequest, ModelStreamEvent, StreamModelFn } from "./types.js";
import { AssistantTurn } from "./assistant-turn.js";
import { classifyModelError, secretHeaderValues, type FailurePhase, type SdkErrorClasses } from "./model-errors.js";
import { OpenAIChunkReader } from "./openai-chunks.js";
import { openAIRequestBody } from "./openai-request-json.js";
import type { ProviderModel } from "./types.js";
import { cachedClient } from "./client-cache.js";
import { pumpStream } from "./pump-stream.js";
import { nodeHttpFetch } from "./node-http-fetch.js";

const SDK_ERRORS: SdkErrorClasses = {
  APIError: OpenAI.APIError,
  APIUserAbortError: OpenAI.APIUserAbortError,
  APIConnectionError: OpenAI.APIConnectionError,
  APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError,
};

/**
 * A StreamModelFn for `api: "openai-completions"` (OpenAI and every server speaking Chat
 * Completions). The configured baseUrl is used as is: the OpenAI SDK's baseURL includes
 * `/v1` (it appends only `/chat/completions`).
 */
export function createOpenAICompletionsStream(): StreamModelFn {
  return (request, signal) => streamOpenAICompletions(request, signal);
}

async function* streamOpenAICompletions(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
  const model = request.model as ProviderModel;
  const turn = new AssistantTurn(model);
  const secrets = [model.apiKey, ...secretHeaderValues(model.headers)];
  let phase: FailurePhase = "request";
  try {
    // Without a key the SDK would go looking on its own (env vars, credential files); the
    // key must come from resolveModel so config and env precedence stay ours.
    if (!model.apiKey) {
      yield turn.fail({ kind: "config", retryable: false, message: `no API key for provider "${model.provider}" (resolve the model first)` });
      return;
    }
    const apiKey = model.apiKey;
    const client = cachedClient({ kind: "openai", baseUrl: model.baseUrl, apiKey, timeoutSeconds: model.timeoutSeconds, headers: model.headers }, () => new OpenAI({
      apiKey: model.apiKey,
      baseURL: model.baseUrl,
      // Never forward OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to a third party.
      organization: null,
      project: null,
      // Retries and failover are the caller's policy; a hidden SDK retry would double them.
      maxRetries: 0,
      ...(model.timeoutSeconds ? { timeout: model.timeoutSeconds * 1000 } : {}),
      ...(model.headers ? { defaultHeaders: model.headers } : {}),
      logLevel: "off",
      fetch: nodeHttpFetch,
    }));
    // The same request as `client.chat.completions.create(params)`, with the
    // body serialized by openAIRequestBody (per-message JSON reused across turns) and handed
    // over as bytes, which the SDK and fetch pass through without another copy.
    const body = openAIRequestBody(request);
    const stream = await client.post<Stream<OpenAI.ChatCompletionChunk>>("/chat/completions", { body, headers: { "content-type": "application/json" }, stream: true, signal });
    phase = "stream";
    yield* pumpStream(stream, new OpenAIChunkReader(turn), turn, signal, () => classifyModelError(signal.reason, signal, SDK_ERRORS, phase, secrets));
  } catch (err) {
    yield turn.fail(classifyModelError(err, signal, SDK_ERRORS, phase, secrets));
  }
}
