import Anthropic from "@anthropic-ai/sdk";
import type { StreamModelFn } from "./types.js";
import { AnthropicEventReader } from "./anthropic-events.js";
import { toAnthropicParams } from "./anthropic-messages.js";
import { streamThroughSdk, type SdkStreamProvider } from "./sdk-stream.js";

const ANTHROPIC: SdkStreamProvider<Anthropic, Anthropic.RawMessageStreamEvent> = {
  kind: "anthropic",
  errors: {
    APIError: Anthropic.APIError,
    APIUserAbortError: Anthropic.APIUserAbortError,
    APIConnectionError: Anthropic.APIConnectionError,
    APIConnectionTimeoutError: Anthropic.APIConnectionTimeoutError,
  },
  // A `token` profile is a bearer token (Authorization header) instead of an x-api-key.
  createClient: (model, shared) =>
    new Anthropic({ ...shared, ...(model.authType === "token" ? { apiKey: null, authToken: shared.apiKey } : {}), baseURL: anthropicBaseUrl(model.baseUrl) }),
  open: (client, request, options) => client.messages.create(toAnthropicParams(request), options),
  reader: (turn) => new AnthropicEventReader(turn),
  endpoint: (model) => (model.baseUrl ? { baseUrl: anthropicBaseUrl(model.baseUrl)!, path: "/v1/messages", baseUrlCarriesVersion: false } : undefined),
};

/** A StreamModelFn for `api: "anthropic-messages"` through the official SDK. */
export function createAnthropicStream(): StreamModelFn {
  return (request, signal) => streamThroughSdk(ANTHROPIC, request, signal);
}

/**
 * The Anthropic SDK's baseURL is the ORIGIN: it appends `/v1/messages` itself. Configs often
 * spell the endpoint OpenAI-style with a trailing `/v1`, which would become `/v1/v1/messages`,
 * so that suffix is stripped. (The OpenAI SDK is the opposite: its baseURL includes `/v1`.)
 */
export function anthropicBaseUrl(baseUrl: string | undefined): string | undefined {
  return baseUrl?.replace(/\/+$/, "").replace(/\/v1$/, "");
}
