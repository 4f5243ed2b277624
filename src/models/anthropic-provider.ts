import Anthropic from "@anthropic-ai/sdk";
import type { ModelRequest, ModelStreamEvent, StreamModelFn } from "./types.js";
import { AnthropicEventReader } from "./anthropic-events.js";
import { toAnthropicParams } from "./anthropic-messages.js";
import { AssistantTurn } from "./assistant-turn.js";
import { classifyModelError, secretHeaderValues, type FailurePhase, type SdkErrorClasses } from "./model-errors.js";
import type { ProviderModel } from "./types.js";
import { cachedClient } from "./client-cache.js";
import { nodeHttpFetch } from "./node-http-fetch.js";
import { pumpStream } from "./pump-stream.js";

const SDK_ERRORS: SdkErrorClasses = {
  APIError: Anthropic.APIError,
  APIUserAbortError: Anthropic.APIUserAbortError,
  APIConnectionError: Anthropic.APIConnectionError,
  APIConnectionTimeoutError: Anthropic.APIConnectionTimeoutError,
};

/** A StreamModelFn for `api: "anthropic-messages"` through the official SDK. */
export function createAnthropicStream(): StreamModelFn {
  return (request, signal) => streamAnthropic(request, signal);
}

/**
 * The Anthropic SDK's baseURL is the ORIGIN: it appends `/v1/messages` itself. Configs often
 * spell the endpoint OpenAI-style with a trailing `/v1`, which would become `/v1/v1/messages`,
 * so that suffix is stripped. (The OpenAI SDK is the opposite: its baseURL includes `/v1`.)
 */
export function anthropicBaseUrl(baseUrl: string | undefined): string | undefined {
  return baseUrl?.replace(/\/+$/, "").replace(/\/v1$/, "");
}

async function* streamAnthropic(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
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
    const client = cachedClient({ kind: "anthropic", baseUrl: model.baseUrl, apiKey, timeoutSeconds: model.timeoutSeconds, headers: model.headers }, () => new Anthropic({
      apiKey: model.apiKey,
      baseURL: anthropicBaseUrl(model.baseUrl),
      // Retries and failover are the caller's policy; a hidden SDK retry would double them.
      maxRetries: 0,
      ...(model.timeoutSeconds ? { timeout: model.timeoutSeconds * 1000 } : {}),
      ...(model.headers ? { defaultHeaders: model.headers } : {}),
      // Failures come back as events; the SDK must not also print them.
      logLevel: "off",
      fetch: nodeHttpFetch,
    }));
    const stream = await client.messages.create(toAnthropicParams(request), { signal });
    phase = "stream";
    yield* pumpStream(stream, new AnthropicEventReader(turn), turn, signal, () => classifyModelError(signal.reason, signal, SDK_ERRORS, phase, secrets));
  } catch (err) {
    yield turn.fail(classifyModelError(err, signal, SDK_ERRORS, phase, secrets));
  }
}
