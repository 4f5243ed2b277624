import type OpenAI from "openai";
import type { StreamModelFn } from "./types.js";
import { createOpenAIClient, OPENAI_SDK_ERRORS } from "./openai-client.js";
import { ResponsesEventReader } from "./openai-responses-events.js";
import { toResponsesBody } from "./openai-responses-input.js";
import { streamThroughSdk, type SdkStreamProvider } from "./sdk-stream.js";

const OPENAI_RESPONSES: SdkStreamProvider<OpenAI, OpenAI.Responses.ResponseStreamEvent> = {
  kind: "openai",
  errors: OPENAI_SDK_ERRORS,
  createClient: createOpenAIClient,
  open: (client, request, options) => client.responses.create(toResponsesBody(request), options),
  reader: (turn) => new ResponsesEventReader(turn),
  endpoint: (model) => (model.baseUrl ? { baseUrl: model.baseUrl, path: "/responses", baseUrlCarriesVersion: true } : undefined),
};

/**
 * A StreamModelFn for `api: "openai-responses"`: OpenAI's Responses API (`POST /responses`)
 * through the official SDK. The configured baseUrl includes `/v1`, as for Chat Completions.
 */
export function createOpenAIResponsesStream(): StreamModelFn {
  return (request, signal) => streamThroughSdk(OPENAI_RESPONSES, request, signal);
}
