import OpenAI from "openai";
import type { SdkErrorClasses } from "./model-errors.js";
import type { SharedClientOptions } from "./sdk-stream.js";
import type { ProviderModel } from "./types.js";

export { OpenAI };

export const OPENAI_SDK_ERRORS: SdkErrorClasses = {
  APIError: OpenAI.APIError,
  APIUserAbortError: OpenAI.APIUserAbortError,
  APIConnectionError: OpenAI.APIConnectionError,
  APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError,
};

/** The OpenAI SDK client for a model's endpoint (Chat Completions and Responses share it). */
export function createOpenAIClient(model: ProviderModel, shared: SharedClientOptions): OpenAI {
  return new OpenAI({
    ...shared,
    baseURL: model.baseUrl,
    // Never forward OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to a third party.
    organization: null,
    project: null,
  });
}
